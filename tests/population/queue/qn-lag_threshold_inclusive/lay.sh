mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cd /root/q
cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" .
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" . && chmod +x lag.sh replay.sh
# backlog before consuming: 20 files, alarm at 10
./lag.sh /root/q 10; echo "lag exit $?"
./lag.sh /root/q 50; echo "lag exit $?"
python3 consume.py | tee consume.log
./lag.sh /root/q 10; echo "lag exit $?"
sqlite3 ledger.db "SELECT COUNT(*) FROM processed"
# dup.txt: the DUP lines, sorted (typed in by hand)
grep ^DUP consume.log
cp "$SUBMISSION/dup.txt" dup.txt
{ echo "file,reason"; grep ^ERROR consume.log | awk '{print $2 "," $3}'; } > error.csv
sqlite3 ledger.db < order-check.sql > order-result.txt
[ -s order-result.txt ] || echo "OK" > order-result.txt
cat order-result.txt error.csv
