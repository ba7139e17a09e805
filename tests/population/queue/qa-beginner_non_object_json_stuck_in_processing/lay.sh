mkdir -p /root/q
cd /root/q
mkdir inbox processing done error
cp /opt/lab/fixtures/eai/queue/inbox/*.json inbox/
ls inbox | wc -l
cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" .
chmod +x lag.sh replay.sh
python3 consume.py
ls done | wc -l
ls error | wc -l
ls processing
cat > dup.txt <<'TXT'
m-5297a97a7a
m-74051d4ed7
m-ab8bdb3938
TXT
echo "file,reason" > error.csv
echo "msg-0006.json,parse" >> error.csv
echo "msg-0017.json,missing-field" >> error.csv
sqlite3 ledger.db < order-check.sql
echo "OK" > order-result.txt
./lag.sh /root/q 3
