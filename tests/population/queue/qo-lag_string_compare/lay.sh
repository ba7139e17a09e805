set -e
mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
cd /root/q
ls inbox | wc -l
cp "$SUBMISSION/schema.csv" .
cp "$SUBMISSION/consume.py" .
# before consuming: does the alarm fire?
cp "$SUBMISSION/lag.sh" .
chmod +x lag.sh
./lag.sh /root/q 10 || echo "alarm (exit $?)"
./lag.sh /root/q 20 && echo "no alarm at 20"
python3 consume.py | tee consume.log
./lag.sh /root/q 10 && echo "no alarm after consuming"
grep '^\[dup\]' consume.log | awk '{print $3}' | sort > dup.txt
echo "file,reason" > error.csv
grep '^\[error\]' consume.log | awk '{print $2 "," $3}' >> error.csv
sqlite3 ledger.db 'select count(*) from processed'
cp "$SUBMISSION/order-check.sql" .
sqlite3 ledger.db < order-check.sql > order-result.txt
[ -s order-result.txt ] || echo OK > order-result.txt
cp "$SUBMISSION/replay.sh" .
chmod +x replay.sh
./replay.sh missing.json || true
