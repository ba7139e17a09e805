mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
cd /root/q
cp "$SUBMISSION"/consume.py "$SUBMISSION"/order-check.sql "$SUBMISSION"/schema.csv "$SUBMISSION"/lag.sh "$SUBMISSION"/replay.sh .
chmod +x consume.py lag.sh replay.sh
python3 consume.py | tee run.log
sed -n 's/.*(duplicate \(.*\))$/\1/p' run.log | sort > dup.txt
echo "file,reason" > error.csv
sed -n 's/^\(.*\) -> error (\(.*\))$/\1,\2/p' run.log | sort >> error.csv
cat dup.txt error.csv
sqlite3 ledger.db < order-check.sql > order-result.txt
[ -s order-result.txt ] || echo OK > order-result.txt
./lag.sh /root/q 0; echo "lag=$?"
# replay test: nope.json is not in error/
./replay.sh nope.json; echo "replay=$?"
