mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cd /root/q
cp "$SUBMISSION"/consume.py "$SUBMISSION"/order-check.sql "$SUBMISSION"/lag.sh "$SUBMISSION"/replay.sh .
chmod +x consume.py lag.sh replay.sh
cat > schema.csv <<'CSV'
field,type,role
msg_id,string,idempotency-key
order_no,string,
seq,integer,sequence
amount,number,
currency,string,
created_at,string,
CSV
{ echo "file,reason"; ./consume.py 2> consume.err; } > error.csv
cat error.csv
awk '{print $2}' consume.err | sort > dup.txt
rm consume.err
cat dup.txt
ls done | wc -l; ls error | wc -l
sqlite3 ledger.db "select count(*) from processed"
out=$(sqlite3 ledger.db < order-check.sql)
if [ -z "$out" ]; then echo OK > order-result.txt; else echo "$out" > order-result.txt; fi
cat order-result.txt
./lag.sh /root/q 0; echo "lag -> $?"
