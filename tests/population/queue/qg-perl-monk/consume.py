#!/usr/bin/env python3
import json, os, sqlite3, sys, time

Q = '/root/q'
NEED = ('msg_id', 'order_no', 'seq', 'amount')

db = sqlite3.connect(Q + '/ledger.db', timeout=60)
db.isolation_level = None
db.execute('''create table if not exists processed (
                msg_id       text primary key,
                order_no     text,
                seq          integer,
                amount       numeric,
                processed_at text default current_timestamp)''')

while True:
    batch = sorted(os.listdir(Q + '/inbox'))
    if not batch:
        break
    for f in batch:
        work = Q + '/processing/' + f
        try:
            os.rename(Q + '/inbox/' + f, work)      # mine now
        except OSError:
            continue
        why = None
        try:
            with open(work, 'rb') as fh:
                m = json.load(fh)
            if not isinstance(m, dict):
                why = 'parse'
        except ValueError:
            why = 'parse'
        if why is None and any(m.get(k) is None for k in NEED):
            why = 'missing-field'
        if why:
            os.rename(work, Q + '/error/' + f)
            print('error', f, why)
            continue
        c = db.execute('insert into processed (msg_id, order_no, seq, amount) values (?,?,?,?) '
                       'on conflict do nothing', [m[k] for k in NEED])
        if c.rowcount == 0:
            print('dup', m['msg_id'], f)
        os.rename(work, Q + '/done/' + f)
