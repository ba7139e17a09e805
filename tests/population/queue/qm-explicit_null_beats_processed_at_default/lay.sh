set -e
mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cd /root/q

cat > schema.csv <<'CSV'
field,type,role
msg_id,string,idempotency-key
order_no,string,
seq,integer,sequence
amount,number,
currency,string,
created_at,string,
CSV

cp "$SUBMISSION/consume.py" .
python3 consume.py | tee /root/run.log
ls done | wc -l; ls error | wc -l
sqlite3 ledger.db '.schema processed'
sqlite3 ledger.db 'select count(*) from processed'
sqlite3 ledger.db 'select msg_id, order_no, seq, amount from processed limit 3'

awk '$1 == "duplicate" {print $3}' /root/run.log | sort > dup.txt
{ echo file,reason; awk '$1 == "error" {print $2 "," $3}' /root/run.log; } > error.csv

cp "$SUBMISSION/order-check.sql" .
res=$(sqlite3 ledger.db < order-check.sql)
if [ -z "$res" ]; then echo OK > order-result.txt; else echo "$res" > order-result.txt; fi

cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" .
chmod +x lag.sh replay.sh
./lag.sh /root/q 0
./replay.sh no-such.json || true
