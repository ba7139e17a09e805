set -e
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
cd /root/q
cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" .
chmod 755 consume.py lag.sh replay.sh
./lag.sh /root/q 50
./consume.py | tee run.txt
grep '^DUP ' run.txt | cut -d' ' -f2 | sort > dup.txt
echo "file,reason" > error.csv
grep '^ERROR ' run.txt | awk '{print $2 "," $3}' >> error.csv
rm run.txt
ls done | wc -l; ls error | wc -l
sqlite3 ledger.db 'select count(*) from processed;'
sqlite3 ledger.db < order-check.sql > order-result.txt
[ -s order-result.txt ] || echo OK > order-result.txt
cat dup.txt error.csv order-result.txt
./lag.sh /root/q 50
