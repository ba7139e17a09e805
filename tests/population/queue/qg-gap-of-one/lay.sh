set -e
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
sqlite3 ledger.db "SELECT COUNT(*) FROM processed;"
# wrote these by hand from the output above
printf 'm-5297a97a7a\nm-74051d4ed7\nm-ab8bdb3938\n' > dup.txt
printf 'file,reason\nmsg-0006.json,parse\nmsg-0017.json,missing-field\n' > error.csv
# test the order check: take a copy, delete one row in the middle, it should complain
cp ledger.db /tmp/test.db
sqlite3 /tmp/test.db "DELETE FROM processed WHERE order_no = 'ORD-18699' AND seq = 5;"
sqlite3 /tmp/test.db < order-check.sql
rm /tmp/test.db
# the real one
sqlite3 ledger.db < order-check.sql > order-result.txt
if [ ! -s order-result.txt ]; then echo "OK" > order-result.txt; fi
cat order-result.txt
./lag.sh /root/q 10
