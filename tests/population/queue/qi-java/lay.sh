# Step 1
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
find /root/q/inbox -type f | wc -l

# Step 2 (typed by hand after looking at msg-0001.json)
cat > /root/q/schema.csv <<'CSV'
field,type,role
msg_id,String,idempotency-key
order_no,String,
seq,int,sequence
amount,long,
currency,String,
created_at,String,
CSV

# Step 3
cp "$SUBMISSION/consume.py" /root/q/consume.py
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" "$SUBMISSION/order-check.sql" /root/q/
chmod +x /root/q/*.sh /root/q/consume.py
cd /root/q
python3 consume.py | tee consume.log
sqlite3 ledger.db '.schema processed'
sqlite3 ledger.db 'SELECT COUNT(*) FROM processed'

# Step 4 / 5 from the log
grep '^DUPLICATE ' consume.log | awk '{print $2}' | sort > dup.txt
{ echo "file,reason"; grep '^ERROR ' consume.log | awk '{print $2 "," $3}'; } > error.csv
cat dup.txt error.csv

# Step 6
if [ -z "$(sqlite3 ledger.db < order-check.sql)" ]; then echo OK > order-result.txt; else sqlite3 ledger.db < order-check.sql > order-result.txt; fi
cat order-result.txt

# Step 7, 8
./lag.sh /root/q 5; echo "exit code: $?"
./replay.sh doesnotexist.json; echo "exit code: $?"
