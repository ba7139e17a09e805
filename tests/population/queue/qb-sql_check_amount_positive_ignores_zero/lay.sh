mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
cp "$SUBMISSION"/{consume.py,order-check.sql,schema.csv,lag.sh,replay.sh} /root/q/
chmod +x /root/q/*.sh
cd /root/q
python3 consume.py
sqlite3 -header -column ledger.db 'SELECT outcome, COUNT(*) FROM receipt GROUP BY outcome'
sqlite3 ledger.db 'SELECT COUNT(*) FROM processed'
sqlite3 ledger.db 'SELECT msg_id FROM v_duplicate_ids ORDER BY msg_id' > dup.txt
sqlite3 -header -csv ledger.db 'SELECT file, reason FROM v_errors ORDER BY file' > error.csv
sqlite3 ledger.db < order-check.sql > order-result.txt
[ -s order-result.txt ] || echo "OK" > order-result.txt
cat dup.txt error.csv order-result.txt
