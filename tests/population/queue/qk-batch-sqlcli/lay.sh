set -e
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" /root/q/
cd /root/q
python3 consume.py
sqlite3 ledger.db '.schema processed'
sqlite3 ledger.db 'select count(*) from processed'
# exports with the sqlite3 CLI
sqlite3 ledger.db "select distinct msg_id from dup_log order by msg_id" > dup.txt
sqlite3 -header -csv ledger.db "select file, reason from errors order by file" > error.csv
sqlite3 ledger.db < order-check.sql > order-problems.txt
if [ -s order-problems.txt ]; then cp order-problems.txt order-result.txt; else echo OK > order-result.txt; fi
cat dup.txt error.csv order-result.txt
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x lag.sh replay.sh
./lag.sh /root/q 0; echo "lag exit $?"
