mkdir -p q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json q/inbox/
cp $SUBMISSION/{consume.py,schema.csv,order-check.sql,lag.sh,replay.sh} q/
cd q; ./consume.py; ls done error | head -3
sqlite3 ledger.db 'select count(*) from processed'
# dups: files in done whose msg_id is already claimed by an earlier file
cat done/*.json | python3 -c 'import sys,json,collections as C;c=C.Counter(json.loads(l)["msg_id"] for l in sys.stdin);print(*sorted(k for k in c if c[k]>1),sep="\n")' > dup.txt
cat > error.csv <<X
file,reason
msg-0006.json,parse
msg-0017.json,missing-field
X
o=$(sqlite3 ledger.db < order-check.sql); [ -z "$o" ] && echo OK > order-result.txt || echo "$o" > order-result.txt
./lag.sh /root/q 20
