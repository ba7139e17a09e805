import json,os,sqlite3,datetime as D
q=os.environ.get('LAB_ROOT','/root')+'/q/'
c=sqlite3.connect(q+'ledger.db',timeout=30)
c.execute('create table if not exists processed(msg_id text unique,order_no text,seq int,amount numeric,processed_at text)')
for n in sorted(os.listdir(q+'inbox')):
    try:os.rename(q+'inbox/'+n,q+'processing/'+n)
    except FileNotFoundError:continue
    try:j=json.load(open(q+'processing/'+n))
    except Exception:j=0
    ok=type(j)==dict and all(j.get(k) is not None for k in('msg_id','order_no','seq','amount'))
    if ok:
        c.execute('insert or ignore into processed values(?,?,?,?,?)',(j['msg_id'],j['order_no'],j['seq'],j['amount'],D.datetime.utcnow().isoformat()+'Z'));c.commit()
    os.rename(q+'processing/'+n,q+('done/' if ok else 'error/')+n)
