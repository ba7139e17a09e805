# session history, cleaned up a bit
mkdir -p /root/q
cd /root/q
mkdir inbox processing done error
cp -p /opt/lab/fixtures/eai/queue/inbox/*.json inbox/
ls inbox | wc -l

# step 2 - read a few messages by eye, then typed it
cat > schema.csv <<'CSV'
field,type,role
msg_id,varchar,idempotency-key
order_no,varchar,
seq,int,sequence
amount,decimal,
currency,varchar,
created_at,datetime,
CSV

cp "$SUBMISSION/consume.py" .
python3 consume.py 2> consume.log
tail -n 1 consume.log
ls done | wc -l ; ls error | wc -l
sqlite3 ledger.db 'select count(*) from processed'

# step 4 - the SKIP lines in the log are the ignored duplicates
grep 'SKIP duplicate' consume.log | sed 's/.*msg_id=//' | sort > dup.txt
cat dup.txt

# step 5 - read the ERROR lines and typed the csv
grep ' ERROR ' consume.log
cat > error.csv <<'CSV'
file,reason
msg-0006.json,parse
msg-0017.json,missing-field
CSV
mkdir -p /root/logs && mv consume.log /root/logs/

cp "$SUBMISSION/order-check.sql" .
sqlite3 ledger.db < order-check.sql > order-result.txt
[ -s order-result.txt ] || echo OK > order-result.txt
cat order-result.txt

cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" .
chmod +x lag.sh replay.sh
./lag.sh /root/q 50; echo "rc=$?"
./replay.sh ../done/msg-0001.json; echo "rc=$?"
