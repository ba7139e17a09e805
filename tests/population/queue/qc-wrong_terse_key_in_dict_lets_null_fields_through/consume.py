#!/usr/bin/env python3
import os,json,sqlite3
from datetime import datetime
Q='/root/q'
K=('msg_id','order_no','seq','amount')
db=sqlite3.connect(f'{Q}/ledger.db',timeout=30,isolation_level=None)
db.execute('CREATE TABLE IF NOT EXISTS processed(msg_id TEXT PRIMARY KEY,order_no TEXT,seq INTEGER,amount NUMERIC,processed_at TEXT)')
def go(f,d):os.rename(f'{Q}/processing/{f}',f'{Q}/{d}/{f}')
for f in sorted(os.listdir(f'{Q}/inbox')):
    try:os.rename(f'{Q}/inbox/{f}',f'{Q}/processing/{f}')
    except OSError:continue
    try:m=json.loads(open(f'{Q}/processing/{f}','rb').read())
    except ValueError:go(f,'error');continue
    if not isinstance(m,dict) or not all(k in m for k in K):go(f,'error');continue
    db.execute('INSERT OR IGNORE INTO processed VALUES(?,?,?,?,?)',(*[m[k] for k in K],datetime.now().isoformat(' ','seconds')))
    go(f,'done')
