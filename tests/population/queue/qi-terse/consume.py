import os,json,sqlite3,time
Q='/root/q';P=lambda d,n:f'{Q}/{d}/{n}'
db=sqlite3.connect(P('.','ledger.db'),timeout=60,isolation_level=None)
db.execute('create table if not exists processed(msg_id primary key,order_no,seq,amount,processed_at not null)')
def ok(n):
    try:m=json.load(open(P('processing',n),'rb'))
    except ValueError:return 'parse'
    if type(m) is not dict:return 'parse'
    if any(m.get(k) is None for k in('msg_id','order_no','seq','amount')):return 'missing-field'
    db.execute('insert or ignore into processed values(?,?,?,?,?)',(m['msg_id'],m['order_no'],m['seq'],m['amount'],time.strftime('%FT%TZ',time.gmtime())))
for n in sorted(os.listdir(f'{Q}/inbox')):
    try:os.rename(P('inbox',n),P('processing',n))
    except FileNotFoundError:continue
    r=ok(n);os.rename(P('processing',n),P('error' if r else 'done',n))
    if r:print(f'{n},{r}')
