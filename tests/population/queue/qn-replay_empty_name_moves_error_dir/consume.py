import json, os, sqlite3, sys, time

Q = '/root/q'
KEYS = ('msg_id', 'order_no', 'seq', 'amount')
SCHEMA = '''CREATE TABLE IF NOT EXISTS processed (
  msg_id TEXT NOT NULL,
  order_no TEXT NOT NULL,
  seq INTEGER NOT NULL,
  amount NUMERIC NOT NULL,
  processed_at TEXT NOT NULL,
  CONSTRAINT processed_msg_id_uq UNIQUE (msg_id)
)'''


def connect():
    return sqlite3.connect(Q + '/ledger.db', timeout=30)


def handle(name):
    work = Q + '/processing/' + name
    try:
        os.rename(Q + '/inbox/' + name, work)
    except FileNotFoundError:
        return 'taken'
    try:
        with open(work, 'rb') as f:
            m = json.loads(f.read().decode('utf-8'))
        ok = isinstance(m, dict)
    except ValueError:
        ok = False
    if not ok:
        os.rename(work, Q + '/error/' + name)
        return 'parse'
    if any(m.get(k) is None for k in KEYS):
        os.rename(work, Q + '/error/' + name)
        return 'missing-field'
    con = connect()
    try:
        with con:
            c = con.execute('INSERT INTO processed VALUES (?,?,?,?,?) ON CONFLICT (msg_id) DO NOTHING',
                            (m['msg_id'], m['order_no'], m['seq'], m['amount'],
                             time.strftime('%Y-%m-%d %H:%M:%S')))
    finally:
        con.close()
    os.rename(work, Q + '/done/' + name)
    return 'done' if c.rowcount else 'dup ' + str(m['msg_id'])


con = connect()
with con:
    con.execute(SCHEMA)
con.close()
while True:
    results = [(n, handle(n)) for n in sorted(os.listdir(Q + '/inbox'))]
    for n, r in results:
        if r != 'taken':
            print(n, r)
    if all(r == 'taken' for n, r in results):
        break
