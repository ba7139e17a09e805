import os,json,sqlite3,datetime
Q='/root/q'
db=sqlite3.connect(Q+'/ledger.db',timeout=60)
db.execute('create table if not exists processed(msg_id text primary key,order_no text,seq int,amount int,processed_at text)')
for f in sorted(os.listdir(Q+'/inbox')):
    p=Q+'/processing/'+f
    try:os.rename(Q+'/inbox/'+f,p)
    except OSError:continue
    try:
        m=json.load(open(p,'rb'))
        assert type(m)==dict
        v=[m.get(k) for k in('msg_id','order_no','seq','amount')]
    except(ValueError,AssertionError):v=[None]
    if None in v:os.rename(p,Q+'/error/'+f);continue
    c=db.execute('insert or ignore into processed values(?,?,?,?,?)',v+[datetime.datetime.now().isoformat()])
    db.commit()
    if c.rowcount<1:print(v[0])
    os.rename(p,Q+'/done/'+f)
