mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cat /root/q/inbox/msg-0006.json; echo
cat /root/q/inbox/msg-0017.json

# uploaded from the PC
cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" \
   "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
# CRLF -> LF for everything that gets executed
sed -i 's/\r$//' /root/q/consume.py /root/q/lag.sh /root/q/replay.sh
chmod +x /root/q/consume.py /root/q/lag.sh /root/q/replay.sh

cd /root/q
python3 consume.py
ls processing | wc -l
sqlite3 ledger.db ".schema processed"
sqlite3 ledger.db "select count(*) from processed"
cat dup.txt error.csv

sqlite3 -header -column ledger.db < order-check.sql
# nothing came back -> typed the result file on the PC and uploaded it
cp "$SUBMISSION/order-result.txt" /root/q/

./lag.sh /root/q 2; echo "exit $?"
./replay.sh msg-0017.json; echo "exit $?"
./lag.sh /root/q 0; echo "exit $?"
mv inbox/msg-0017.json error/
./replay.sh msg-0017.json.bak; echo "exit $?"
ls error
