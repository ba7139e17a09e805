import os,json,sqlite3,time
Q='/root/q/'
db=sqlite3.connect(Q+'ledger.db',timeout=30)
db.execute('create table if not exists processed(msg_id text primary key,order_no text,seq integer,amount integer,processed_at text)')
R='msg_id','order_no','seq','amount'
for f in sorted(os.listdir(Q+'inbox')):
    p=Q+'processing/'+f
    os.rename(Q+'inbox/'+f,p)
    try:m=json.loads(open(p,'rb').read())
    except ValueError:m=None
    if not isinstance(m,dict) or any(m.get(k) is None for k in R):
        os.rename(p,Q+'error/'+f);continue
    with db:db.execute('insert or ignore into processed values(?,?,?,?,?)',[m[k] for k in R]+[time.strftime('%F %T')])
    os.rename(p,Q+'done/'+f)
