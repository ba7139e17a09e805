set -e
mkdir -p /root/q
cd /root/q
mkdir -p inbox processing done error
cp /opt/lab/fixtures/eai/queue/inbox/*.json inbox/
ls inbox | wc -l
cp "$SUBMISSION/schema.csv" .
cp "$SUBMISSION/consume.py" .
python3 consume.py > run.log
cat run.log
grep '^DUP ' run.log | cut -d' ' -f3 | sort > dup.txt
echo 'file,reason' > error.csv
grep '^ERR ' run.log | cut -d' ' -f2,3 | tr ' ' ',' >> error.csv
cp "$SUBMISSION/order-check.sql" .
rows=$(sqlite3 ledger.db < order-check.sql)
if [ -z "$rows" ]; then echo OK > order-result.txt; else echo "$rows" > order-result.txt; fi
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" .
chmod +x lag.sh replay.sh
./lag.sh /root/q 5
# try replay: a name that is not there, then a real one and back again
./replay.sh msg-0099.json || echo "refused: $?"
./replay.sh msg-0017.json
./lag.sh /root/q 5
mv inbox/msg-0017.json error/
./lag.sh /root/q 5
