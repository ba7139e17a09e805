mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
find /root/q/inbox -type f | wc -l
cp "$SUBMISSION"/consume.py "$SUBMISSION"/schema.csv "$SUBMISSION"/order-check.sql "$SUBMISSION"/lag.sh "$SUBMISSION"/replay.sh /root/q/
chmod +x /root/q/consume.py /root/q/lag.sh /root/q/replay.sh
cd /root/q && ./consume.py
awk '$3=="dup"{print $5}' consume.log | sort -u > dup.txt
(echo "file,reason"; awk '$3=="error"{print $4","$5}' consume.log) > error.csv
sqlite3 ledger.db < order-check.sql > order-result.txt
[ -s order-result.txt ] || echo OK > order-result.txt
head dup.txt error.csv order-result.txt
./lag.sh /root/q 10 && echo "lag ok"
