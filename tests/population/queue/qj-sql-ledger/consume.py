#!/usr/bin/env python3
# consume.py -- the Python is only plumbing; the ledger rules live in SQL (ledger.sql).
import json, os, sqlite3, sys

Q = '/root/q'
DIRS = {d: os.path.join(Q, d) for d in ('inbox', 'processing', 'done', 'error')}
REQ = ('msg_id', 'order_no', 'seq', 'amount')

SCHEMA = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'ledger.sql')).read()

INSERT = """
INSERT INTO processed (msg_id, order_no, seq, amount, currency, created_at, source_file)
VALUES (:msg_id, :order_no, :seq, :amount, :currency, :created_at, :source_file)
ON CONFLICT (msg_id) DO NOTHING
RETURNING msg_id
"""


def sqlval(v):
    if v is None or isinstance(v, (str, int, float)):
        return v
    return json.dumps(v, ensure_ascii=False)


def main():
    db = sqlite3.connect(os.path.join(Q, 'ledger.db'), timeout=60, isolation_level=None)
    db.execute('PRAGMA busy_timeout = 60000')
    db.executescript(SCHEMA)
    for name in sorted(os.listdir(DIRS['inbox'])):
        work = os.path.join(DIRS['processing'], name)
        try:
            os.rename(os.path.join(DIRS['inbox'], name), work)
        except FileNotFoundError:
            continue  # claimed by another consumer
        reason, msg = None, None
        try:
            with open(work, 'rb') as fh:
                msg = json.loads(fh.read().decode('utf-8'))
            if not isinstance(msg, dict):
                reason = 'parse'
        except (OSError, ValueError, RecursionError):
            reason = 'parse'
        if reason is None and any(msg.get(k) is None for k in REQ):
            reason = 'missing-field'

        if reason:
            db.execute('INSERT INTO rejected (source_file, reason) VALUES (?, ?)', (name, reason))
            os.replace(work, os.path.join(DIRS['error'], name))
            continue

        row = {k: sqlval(msg.get(k)) for k in ('msg_id', 'order_no', 'seq', 'amount', 'currency', 'created_at')}
        row['source_file'] = name
        db.execute('BEGIN IMMEDIATE')
        won = db.execute(INSERT, row).fetchall()
        if not won:
            db.execute('INSERT INTO ignored_duplicate (msg_id, source_file) VALUES (?, ?)', (row['msg_id'], name))
        db.execute('COMMIT')
        os.replace(work, os.path.join(DIRS['done'], name))
    db.close()


if __name__ == '__main__':
    sys.exit(main())
