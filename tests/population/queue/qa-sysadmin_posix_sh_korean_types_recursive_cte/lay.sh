mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
find /opt/lab/fixtures/eai/queue/inbox -maxdepth 1 -name '*.json' -exec cp {} /root/q/inbox/ \;
ls /root/q/inbox | wc -l
cp "$SUBMISSION"/schema.csv "$SUBMISSION"/consume.py "$SUBMISSION"/order-check.sql "$SUBMISSION"/lag.sh "$SUBMISSION"/replay.sh /root/q/
chmod 755 /root/q/lag.sh /root/q/replay.sh
cd /root/q
python3 consume.py
grep -c ' OK ' consume.log; grep -c ' DUP ' consume.log
grep ' DUP ' consume.log | awk '{print $NF}' | sort > dup.txt
(echo file,reason; grep ' ERROR ' consume.log | awk '{print $7 "," $6}') > error.csv
sqlite3 ledger.db < order-check.sql > order-result.txt
[ -s order-result.txt ] || echo OK > order-result.txt
cat dup.txt error.csv order-result.txt
./lag.sh /root/q 0; echo "lag rc=$?"
