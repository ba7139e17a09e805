mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
cp "$SUBMISSION/consume.py" "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" "$SUBMISSION/order-check.sql" "$SUBMISSION/schema.csv" /root/q/
chmod +x /root/q/lag.sh /root/q/replay.sh
cd /root/q
python3 consume.py > consume.log
cat consume.log
ls done | wc -l
ls error | wc -l
sqlite3 ledger.db "SELECT COUNT(*) FROM processed;"
grep DUPLICATE consume.log | awk '{print $2}' | sort > dup.txt
echo "file,reason" > error.csv
grep ^ERROR consume.log | awk '{print $2","$3}' >> error.csv
sqlite3 ledger.db < order-check.sql > order-result.txt
if [ ! -s order-result.txt ]; then echo "OK" > order-result.txt; fi
cat dup.txt error.csv order-result.txt
./lag.sh /root/q 10
echo "lag exit: $?"
