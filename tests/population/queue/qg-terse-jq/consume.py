import os, json, sqlite3
Q = '/root/q'
db = sqlite3.connect(Q + '/ledger.db', timeout=60, isolation_level=None)
db.execute('create table if not exists processed(msg_id text not null unique, order_no text, seq int, amount real, processed_at text)')
REQ = 'msg_id', 'order_no', 'seq', 'amount'

def load(p):
    try:
        with open(p, 'rb') as f: m = json.load(f)
    except ValueError: return None          # JSONDecodeError + UnicodeDecodeError
    return m if isinstance(m, dict) else None

while os.listdir(Q + '/inbox'):
    for f in sorted(os.listdir(Q + '/inbox')):
        p = Q + '/processing/' + f
        try: os.rename(Q + '/inbox/' + f, p)
        except FileNotFoundError: continue     # somebody else took it
        m = load(p)
        ok = m is not None and all(m.get(k) is not None for k in REQ)
        if ok:
            db.execute("insert or ignore into processed values(?,?,?,?,datetime('now'))", [m[k] for k in REQ])
        os.rename(p, Q + ('/done/' if ok else '/error/') + f)
