import json,sqlite3,time
from pathlib import Path
q=Path('/root/q')
d=sqlite3.connect(q/'ledger.db',timeout=30,isolation_level=None)
d.execute('CREATE TABLE IF NOT EXISTS processed(id INTEGER PRIMARY KEY,msg_id TEXT UNIQUE NOT NULL,order_no,seq,amount,processed_at INTEGER)')
for f in (q/'inbox').iterdir():
 p=q/'processing'/f.name
 try:f.rename(p)
 except FileNotFoundError:continue
 try:m=json.loads(p.read_bytes())
 except ValueError:m=0
 if type(m)is not dict or None in map(m.get,('msg_id','order_no','seq','amount')):p.rename(q/'error'/f.name);continue
 d.execute('INSERT INTO processed(msg_id,order_no,seq,amount,processed_at)VALUES(?,?,?,?,?)ON CONFLICT(msg_id)DO NOTHING',(m['msg_id'],m['order_no'],m['seq'],m['amount'],int(time.time())))
 p.rename(q/'done'/f.name)
