mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cd /root/q
cp "$SUBMISSION"/{consume.py,order-check.sql,lag.sh,replay.sh} .
chmod +x consume.py lag.sh replay.sh
# step 2: looked at the messages with jq-less python
python3 -c 'import json; print(json.load(open("inbox/msg-0001.json")))'
printf '%s\n' field,type,role msg_id,string,idempotency-key order_no,string, seq,integer,sequence amount,number, currency,string, created_at,string, > schema.csv
# before: the alert fires
./lag.sh /root/q 10; echo "exit=$?"
./consume.py > run.tsv
ls done | wc -l; ls error | wc -l; sqlite3 ledger.db 'select count(*) from processed'
awk -F'\t' '$1=="dup"{print $3}' run.tsv | sort > dup.txt
{ echo file,reason; awk -F'\t' '$1=="error"{print $2","$3}' run.tsv | sort; } > error.csv
rm run.tsv
cat dup.txt error.csv
res=$(sqlite3 ledger.db < order-check.sql)
[ -z "$res" ] && echo OK > order-result.txt || echo "$res" > order-result.txt
cat order-result.txt
# after: quiet
./lag.sh /root/q 10; echo "exit=$?"
