mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cd /root/q
cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" "$SUBMISSION/error.csv" .
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" . ; chmod +x *.sh
python3 consume.py | tee log.txt
awk '$2 == "dup" {print $3}' log.txt | sort > dup.txt
cat dup.txt
sqlite3 ledger.db 'select count(*) from processed'
sqlite3 ledger.db < order-check.sql > order-result.txt
[ -s order-result.txt ] || echo OK > order-result.txt
# path traversal tests
./replay.sh ../done/msg-0001.json; echo "exit $?"
./replay.sh /root/q/done/msg-0001.json; echo "exit $?"
./replay.sh msg-0099.json; echo "exit $?"
./replay.sh msg-0006.json; echo "exit $?"
./lag.sh /root/q 1; echo "exit $?"
mv inbox/msg-0006.json error/
./lag.sh /root/q 1; echo "exit $?"
