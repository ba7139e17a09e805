import json, os, sqlite3, datetime
Q = '/root/q'
db = sqlite3.connect(f'{Q}/ledger.db', timeout=30)
db.execute('create table if not exists processed(msg_id text primary key, order_no text, seq int, amount num, processed_at text)')
db.commit()
for f in sorted(os.listdir(f'{Q}/inbox')):
    p = f'{Q}/processing/{f}'
    try: os.rename(f'{Q}/inbox/{f}', p)
    except FileNotFoundError: continue
    try:
        m = json.load(open(p, 'rb'))
        assert isinstance(m, dict)
    except Exception:
        print(f'{f},parse'); os.rename(p, f'{Q}/error/{f}'); continue
    if not all(m.get(k) for k in ('msg_id', 'order_no', 'seq', 'amount')):
        print(f'{f},missing-field'); os.rename(p, f'{Q}/error/{f}'); continue
    c = db.execute('insert or ignore into processed values(?,?,?,?,?)',
                   (m['msg_id'], m['order_no'], m['seq'], m['amount'], datetime.datetime.now().isoformat()))
    db.commit()
    if not c.rowcount: print(m['msg_id'], file=open(f'{Q}/.dups', 'a'))
    os.rename(p, f'{Q}/done/{f}')
