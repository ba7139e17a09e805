mkdir -p /root/q
cd /root/q
mkdir inbox processing done error
cp /opt/lab/fixtures/eai/queue/inbox/*.json inbox/
ls inbox | wc -l
for f in inbox/msg-0001.json inbox/msg-0006.json inbox/msg-0017.json; do cat "$f"; echo; done
cp "$SUBMISSION"/schema.csv "$SUBMISSION"/consume.py "$SUBMISSION"/order-check.sql "$SUBMISSION"/lag.sh "$SUBMISSION"/replay.sh .
chmod 755 lag.sh replay.sh
# consume.py also writes dup.txt and error.csv at the end of the run
python3 consume.py
sqlite3 ledger.db '.schema processed'
sqlite3 ledger.db 'SELECT COUNT(*) FROM processed; SELECT * FROM duplicates;'
cat dup.txt error.csv
n=$(sqlite3 ledger.db < order-check.sql | wc -l)
echo "order-check rows: $n"
if [ "$n" -eq 0 ]; then printf 'OK\n(order-check.sql returned 0 rows)\n' > order-result.txt; else sqlite3 -header ledger.db < order-check.sql > order-result.txt; fi
./lag.sh /root/q 20; echo "exit $?"
./lag.sh /root/q 0; echo "exit $?"
