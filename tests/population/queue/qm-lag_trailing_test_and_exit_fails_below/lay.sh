mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cd /root/q
head -c 300 inbox/msg-0001.json; echo
printf '%s\n' field,type,role msg_id,string,idempotency-key order_no,string, seq,integer,sequence amount,number, currency,string, created_at,datetime, > schema.csv
cp "$SUBMISSION"/consume.py "$SUBMISSION"/order-check.sql "$SUBMISSION"/lag.sh "$SUBMISSION"/replay.sh .
chmod +x *.sh consume.py
./consume.py | tee /tmp/run.txt
ls done | wc -l; ls error | wc -l
grep ^DUP /tmp/run.txt | cut -d' ' -f3 | sort > dup.txt
(echo file,reason; grep ^ERR /tmp/run.txt | cut -d' ' -f2,3 | tr ' ' , ) > error.csv
sqlite3 ledger.db 'select count(*) from processed'
o=$(sqlite3 ledger.db < order-check.sql); [ -z "$o" ] && echo OK > order-result.txt || echo "$o" > order-result.txt
# alert test: put 3 files in inbox with threshold 2
mkdir -p /tmp/lt/inbox /tmp/lt/processing /tmp/lt/error && touch /tmp/lt/inbox/{a,b,c}.json
./lag.sh /tmp/lt 2; echo "rc=$?"     # rc=1, alert works
./replay.sh nothere.json; echo "rc=$?"
true
