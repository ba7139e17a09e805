#!/usr/bin/env python3
# consume.py - directory queue consumer: inbox -> processing -> done | error
# claim = rename() into processing (atomic on one fs), dedup = PRIMARY KEY + INSERT OR IGNORE
import os, sys, json, sqlite3

Q = '/root/q'
REQ = ('msg_id', 'order_no', 'seq', 'amount')

for d in ('inbox', 'processing', 'done', 'error'):
    os.makedirs(Q + '/' + d, exist_ok=True)

db = sqlite3.connect(Q + '/ledger.db', timeout=60, isolation_level=None)   # autocommit
db.execute('''create table if not exists processed (
    msg_id       text not null primary key,
    order_no     text,
    seq          int,
    amount       decimal(12,2),
    processed_at text not null
)''')


def mtime(e):
    try:
        return e.stat().st_mtime_ns
    except FileNotFoundError:      # other consumer took it meanwhile
        return 0


# oldest first, like a real queue (FIFO by mtime, name breaks ties)
todo = [e for e in os.scandir(Q + '/inbox') if e.is_file()]
todo.sort(key=lambda e: (mtime(e), e.name))

ok = bad = 0
for e in todo:
    work = Q + '/processing/' + e.name
    try:
        os.rename(e.path, work)
    except FileNotFoundError:
        continue                   # lost the race, fine

    with open(work, 'rb') as f:
        data = f.read()

    reason = None
    try:
        m = json.loads(data.decode('utf-8'))
        if type(m) is not dict:
            reason = 'parse'
    except (ValueError, RecursionError):   # ValueError = JSONDecodeError + UnicodeDecodeError
        reason = 'parse'
    if reason is None:
        for k in REQ:
            if m.get(k) is None:           # absent or null. 0 / "" are values
                reason = 'missing-field'
                break

    if reason:
        os.rename(work, Q + '/error/' + e.name)
        print('ERR  %s %s' % (e.name, reason), file=sys.stderr)
        bad += 1
        continue

    db.execute("insert or ignore into processed values (?, ?, ?, ?, datetime('now', 'localtime'))",
               (m['msg_id'], m['order_no'], m['seq'], m['amount']))
    os.rename(work, Q + '/done/' + e.name)
    ok += 1

db.close()
print('done=%d error=%d' % (ok, bad), file=sys.stderr)
