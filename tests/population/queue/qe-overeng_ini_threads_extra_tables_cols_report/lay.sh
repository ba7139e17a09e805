set -e
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
test "$(ls /root/q/inbox | wc -l)" -eq 20

cp "$SUBMISSION/README.md" "$SUBMISSION/queue.ini" "$SUBMISSION/schema.csv" \
   "$SUBMISSION/consume.py" "$SUBMISSION/report.py" "$SUBMISSION/order-check.sql" \
   "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x /root/q/*.py /root/q/*.sh
cd /root/q

python3 consume.py
sqlite3 ledger.db '.schema processed'
sqlite3 -box ledger.db 'SELECT * FROM consume_run'
python3 report.py
cat dup.txt error.csv order-result.txt
./lag.sh /root/q 20
