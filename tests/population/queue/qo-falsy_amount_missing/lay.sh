set -e
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cd /root/q
cat inbox/msg-0001.json
cp "$SUBMISSION/schema.csv" .
cp "$SUBMISSION/consume.py" .
python3 consume.py | tee consume.out
ls done | wc -l
ls error | wc -l
ls processing | wc -l
sqlite3 ledger.db "select count(*) from processed"
grep '^DUP,' consume.out | cut -d, -f3 | sort > dup.txt
(echo "file,reason"; grep '^ERROR,' consume.out | cut -d, -f2,3) > error.csv
cp "$SUBMISSION/order-check.sql" .
sqlite3 ledger.db < order-check.sql > order-result.txt
if [ ! -s order-result.txt ]; then echo OK > order-result.txt; fi
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" .
chmod +x lag.sh replay.sh
./lag.sh /root/q 0
./replay.sh nope.json || true
