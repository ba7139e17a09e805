cd /root
mkdir q q/inbox q/processing q/done q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json q/inbox/
ls q/inbox | wc -l
cp "$SUBMISSION/consume.py" "$SUBMISSION/schema.csv" "$SUBMISSION/order-check.sql" "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" q/
python3 q/consume.py
sqlite3 q/ledger.db 'select count(*) from processed; select * from errors; select * from dup_log;'
sqlite3 q/ledger.db 'select distinct msg_id from dup_log order by msg_id' > q/dup.txt
sqlite3 -header -csv q/ledger.db 'select file, reason from errors order by file' > q/error.csv
sqlite3 q/ledger.db < q/order-check.sql > q/order-result.txt
if [ ! -s q/order-result.txt ]; then
    echo OK > q/order-result.txt
    echo "checked $(sqlite3 q/ledger.db 'select count(distinct order_no) from processed') orders, no duplicated or missing seq" >> q/order-result.txt
fi
sh q/lag.sh q 10
