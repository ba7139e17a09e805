# step 1
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
# step 2
cat /root/q/inbox/msg-0001.json
cp "$SUBMISSION/schema.csv" /root/q/schema.csv
# step 3
cp "$SUBMISSION/consume.py" /root/q/consume.py
cd /root/q && python3 consume.py
# step 4
ls /root/q/done | wc -l
ls /root/q/error | wc -l
sqlite3 /root/q/ledger.db "SELECT COUNT(*) FROM processed"
cp "$SUBMISSION/dup.txt" /root/q/dup.txt
# step 5
cp "$SUBMISSION/error.csv" /root/q/error.csv
# step 6
cp "$SUBMISSION/order-check.sql" /root/q/order-check.sql
sqlite3 /root/q/ledger.db < /root/q/order-check.sql > /tmp/order.out
if [ -s /tmp/order.out ]; then cp /tmp/order.out /root/q/order-result.txt; else echo OK > /root/q/order-result.txt; fi
rm -f /tmp/order.out
# step 7
cp "$SUBMISSION/lag.sh" /root/q/lag.sh && chmod +x /root/q/lag.sh
/root/q/lag.sh /root/q 5; echo "exit $?"
# step 8
cp "$SUBMISSION/replay.sh" /root/q/replay.sh && chmod +x /root/q/replay.sh
/root/q/replay.sh msg-0017.json; echo "exit $?"
/root/q/lag.sh /root/q 5
cd /root/q && python3 consume.py
/root/q/replay.sh msg-0017.json; echo "exit $?"
/root/q/replay.sh nothing.json; echo "exit $?"
# msg-0017.json is back in inbox now -> run the consumer again so it goes back to error
python3 /root/q/consume.py
