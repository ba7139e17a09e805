# step 1
mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
# step 2: looked at the messages first
head -c 300 /root/q/inbox/msg-0001.json; echo
cp "$SUBMISSION/schema.csv" /root/q/
# step 3
cp "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x /root/q/*.sh /root/q/consume.py
cd /root/q
python3 consume.py
# step 4
ls done | wc -l; ls error | wc -l
sqlite3 ledger.db 'SELECT COUNT(*) FROM processed'
sqlite3 ledger.db 'SELECT * FROM v_duplicates'
sqlite3 ledger.db 'SELECT msg_id FROM v_duplicates ORDER BY msg_id' > dup.txt
# step 5 (sqlite3 -csv writes CRLF, fine)
sqlite3 -csv -header ledger.db 'SELECT file, reason FROM rejects ORDER BY file' > error.csv
cat error.csv
# step 6
sqlite3 -header -column ledger.db < order-check.sql > /tmp/order-check.out
if [ -s /tmp/order-check.out ]; then cat /tmp/order-check.out > order-result.txt; else echo OK > order-result.txt; fi
cat order-result.txt
# step 7, 8
./lag.sh /root/q 10; echo "lag exit=$?"
