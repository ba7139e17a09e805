set -e
mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox/*.json | wc -l
cd /root/q
cp "$SUBMISSION"/schema.csv "$SUBMISSION"/ledger.sql "$SUBMISSION"/consume.py "$SUBMISSION"/order-check.sql \
   "$SUBMISSION"/reports.sql "$SUBMISSION"/lag.sh "$SUBMISSION"/replay.sh .
chmod +x consume.py lag.sh replay.sh
python3 consume.py
sqlite3 ledger.db 'SELECT COUNT(*) FROM processed; SELECT COUNT(*) FROM ignored_duplicate; SELECT * FROM rejected;'
ls done | wc -l; ls error | wc -l
sqlite3 ledger.db < reports.sql
cat dup.txt error.csv
sqlite3 ledger.db < order-check.sql > /tmp/order-rows
if [ -s /tmp/order-rows ]; then cat /tmp/order-rows > order-result.txt; else echo OK > order-result.txt; fi
cat order-result.txt
./lag.sh /root/q 0 || echo "lag says backlog ($?)"
./lag.sh /root/q 20 && echo "lag ok"
