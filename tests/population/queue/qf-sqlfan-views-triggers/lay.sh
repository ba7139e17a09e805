mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
cd /root/q
cp "$SUBMISSION"/{schema.csv,ledger.sql,consume.py,order-check.sql,lag.sh,replay.sh} .
chmod +x consume.py lag.sh replay.sh
python3 consume.py
sqlite3 ledger.db '.schema processed'
sqlite3 ledger.db 'SELECT count(*) FROM processed'
sqlite3 ledger.db 'SELECT msg_id FROM v_dup_txt' > dup.txt
{ echo 'file,reason'; sqlite3 -csv ledger.db 'SELECT file, reason FROM v_error_csv'; } > error.csv
sqlite3 ledger.db < order-check.sql > order-result.txt
[ -s order-result.txt ] || echo OK > order-result.txt
cat dup.txt error.csv order-result.txt
./lag.sh /root/q 5
