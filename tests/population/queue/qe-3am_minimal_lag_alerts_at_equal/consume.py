import json, os, sqlite3, datetime

Q = '/root/q'
db = sqlite3.connect(Q + '/ledger.db', timeout=20)
db.execute('create table if not exists processed (msg_id text primary key, order_no, seq, amount, processed_at)')
db.commit()

for f in sorted(os.listdir(Q + '/inbox')):
    p = Q + '/processing/' + f
    try:
        os.rename(Q + '/inbox/' + f, p)
    except OSError:
        continue  # gone (other consumer) or not movable
    try:
        m = json.load(open(p, 'rb'))
        bad = None if isinstance(m, dict) else 'parse'
    except Exception:
        m, bad = None, 'parse'
    if not bad and any(m.get(k) is None for k in ('msg_id', 'order_no', 'seq', 'amount')):
        bad = 'missing-field'
    if bad:
        print('ERR', f, bad)
        os.rename(p, Q + '/error/' + f)
        continue
    c = db.execute('insert or ignore into processed values (?,?,?,?,?)',
                   (m['msg_id'], m['order_no'], m['seq'], m['amount'], datetime.datetime.now().isoformat()))
    db.commit()
    if c.rowcount == 0:
        print('DUP', m['msg_id'])
    os.rename(p, Q + '/done/' + f)
