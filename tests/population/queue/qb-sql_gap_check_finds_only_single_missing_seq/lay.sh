mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
cd /root/q
cp "$SUBMISSION"/consume.py "$SUBMISSION"/order-check.sql "$SUBMISSION"/schema.csv "$SUBMISSION"/lag.sh "$SUBMISSION"/replay.sh .
chmod +x lag.sh replay.sh
python3 consume.py | tee consume.out
sed -n 's/^duplicate ignored: //p' consume.out > dup.txt
rm consume.out
sqlite3 -csv -header ledger.db "SELECT file, reason FROM dead_letter ORDER BY file" > error.csv
out=$(sqlite3 ledger.db < order-check.sql)
if [ -z "$out" ]; then echo OK > order-result.txt; else echo "$out" > order-result.txt; fi
cat dup.txt error.csv order-result.txt
./lag.sh /root/q 0
