mkdir -p /root/q
cd /root/q
mkdir inbox processing done error
cp /opt/lab/fixtures/eai/queue/inbox/*.json inbox/
ls inbox | wc -l
cat inbox/msg-0006.json; echo; cat inbox/msg-0017.json
cp "$SUBMISSION"/schema.csv "$SUBMISSION"/consume.py "$SUBMISSION"/order-check.sql "$SUBMISSION"/lag.sh "$SUBMISSION"/replay.sh .
chmod +x lag.sh replay.sh
python3 consume.py | tee run.log
sqlite3 ledger.db '.schema processed'
sqlite3 ledger.db 'SELECT COUNT(*) FROM processed;'
grep '^DUP' run.log | awk '{print $3}' | sort > dup.txt
printf 'file,reason\n' > error.csv
grep '^ERROR' run.log | awk '{print $2","$3}' >> error.csv
sqlite3 ledger.db < order-check.sql > order-result.txt
test -s order-result.txt || echo OK > order-result.txt
cat dup.txt error.csv order-result.txt
./lag.sh /root/q 20; echo $?
./lag.sh /root/q -1; echo $?
./replay.sh ../done/msg-0001.json; echo $?
