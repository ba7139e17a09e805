#!/usr/bin/env python3
"""Queue consumer. The ledger DB is also my audit log: errors and ignored duplicates
get their own tables, and the csv/txt reports are exported from them with sqlite3."""
import json
import os
import os.path
import random
import sqlite3

BASE = os.path.join(os.environ.get('LAB_ROOT', '/root'), 'q')
INBOX = os.path.join(BASE, 'inbox')
PROCESSING = os.path.join(BASE, 'processing')
DONE = os.path.join(BASE, 'done')
ERROR = os.path.join(BASE, 'error')
REQUIRED = ['msg_id', 'order_no', 'seq', 'amount']

db = sqlite3.connect(os.path.join(BASE, 'ledger.db'), timeout=45)
db.executescript('''
CREATE TABLE IF NOT EXISTS processed (
    msg_id TEXT NOT NULL,
    order_no TEXT NOT NULL,
    seq INTEGER NOT NULL,
    amount NUMERIC NOT NULL,
    processed_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX IF NOT EXISTS ux_processed_msg_id ON processed (msg_id);
CREATE TABLE IF NOT EXISTS errors (
    file TEXT PRIMARY KEY,
    reason TEXT NOT NULL CHECK (reason IN ('parse', 'missing-field')),
    logged_at TEXT DEFAULT CURRENT_TIMESTAMP
);
CREATE TABLE IF NOT EXISTS dup_log (
    msg_id TEXT NOT NULL,
    file TEXT NOT NULL,
    logged_at TEXT DEFAULT CURRENT_TIMESTAMP
);
''')


def check(path):
    """returns (reason, message); reason is None for a good message"""
    with open(path, 'rb') as fh:
        raw = fh.read()
    try:
        message = json.loads(raw.decode('utf-8'))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return 'parse', None
    if type(message) is not dict:
        return 'parse', None
    for field in REQUIRED:
        if field not in message or message[field] is None:
            return 'missing-field', None
    return None, message


# random order on purpose: a queue gives no ordering promise, the seq check is what proves order
entries = [e.name for e in os.scandir(INBOX) if e.is_file(follow_symlinks=False)]
random.shuffle(entries)

for name in entries:
    claimed = os.path.join(PROCESSING, name)
    try:
        os.rename(os.path.join(INBOX, name), claimed)
    except FileNotFoundError:
        continue
    reason, msg = check(claimed)
    if reason is not None:
        with db:
            db.execute('INSERT OR REPLACE INTO errors (file, reason) VALUES (?, ?)', (name, reason))
        os.rename(claimed, os.path.join(ERROR, name))
        continue
    with db:
        cur = db.execute('INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount) VALUES (?, ?, ?, ?)',
                         (msg['msg_id'], msg['order_no'], msg['seq'], msg['amount']))
        if cur.rowcount == 0:
            db.execute('INSERT INTO dup_log (msg_id, file) VALUES (?, ?)', (msg['msg_id'], name))
    os.rename(claimed, os.path.join(DONE, name))

db.close()
