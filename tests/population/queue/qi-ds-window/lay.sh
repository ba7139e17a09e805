# my session, in order
mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l

cp "$SUBMISSION"/{consume.py,report.py,order-check.sql,lag.sh,replay.sh} /root/q/
chmod 755 /root/q/lag.sh /root/q/replay.sh
cd /root/q

python3 consume.py
python3 report.py          # error.csv, dup.txt, schema.csv
cat schema.csv error.csv dup.txt

sqlite3 -header -column ledger.db 'SELECT order_no, COUNT(*) n, MIN(seq), MAX(seq) FROM processed GROUP BY order_no'

# step 6: run the window query, OK when nothing comes back
rows=$(sqlite3 ledger.db < order-check.sql)
if [ -z "$rows" ]; then
    printf 'OK\n' > order-result.txt
else
    { echo "PROBLEMS"; echo "$rows"; } > order-result.txt
fi
cat order-result.txt

./lag.sh /root/q 10; echo "lag exit $?"
