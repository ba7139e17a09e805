mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cat /root/q/inbox/msg-0002.json
for f in schema.csv consume.py order-check.sql lag.sh replay.sh; do cp "$SUBMISSION/$f" /root/q/$f; done
chmod 755 /root/q/*.sh
python3 /root/q/consume.py
echo "exit=$?"
sqlite3 /root/q/ledger.db '.schema processed'
sqlite3 /root/q/ledger.db 'select count(*) from processed'
cat /root/q/dup.txt /root/q/error.csv
sqlite3 /root/q/ledger.db < /root/q/order-check.sql | tee /root/q/order-result.txt
if [ ! -s /root/q/order-result.txt ]; then
    echo OK > /root/q/order-result.txt
fi
bash /root/q/lag.sh /root/q 10; echo "lag exit=$?"
bash /root/q/replay.sh msg-9999.json; echo "replay exit=$?"
