# steps 1-8 as typed at the pod's shell
set -e
mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cp "$SUBMISSION"/{schema.csv,consume.py,order-check.sql,lag.sh,replay.sh} /root/q/
chmod +x /root/q/*.sh /root/q/consume.py
cd /root/q
python3 consume.py
# step 4/5: cut dup.txt and error.csv out of the consumer log
awk '$2=="DUP"{print $3}' consume.log | sort -u > dup.txt
{ echo "file,reason"; awk '$2=="ERROR"{print $4","$3}' consume.log; } > error.csv
# step 6
sqlite3 ledger.db < order-check.sql > /tmp/order.out
if [ -s /tmp/order.out ]; then cp /tmp/order.out order-result.txt; else echo OK > order-result.txt; fi
# step 7 quick look
./lag.sh /root/q 5 || echo "lag over threshold"
