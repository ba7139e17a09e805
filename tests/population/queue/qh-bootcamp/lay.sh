# Steps I ran for the queue lab
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l

cat /root/q/inbox/msg-0001.json
cp "$SUBMISSION/schema.csv" /root/q/schema.csv

cp "$SUBMISSION/consume.py" /root/q/consume.py
cd /root/q
python3 consume.py

ls done | wc -l
ls error | wc -l
sqlite3 ledger.db "SELECT COUNT(*) FROM processed;"
cat dup.txt
cat error.csv

cp "$SUBMISSION/order-check.sql" /root/q/order-check.sql
RESULT=$(sqlite3 ledger.db < order-check.sql)
if [ -z "$RESULT" ]; then
    echo "OK" > order-result.txt
else
    echo "$RESULT" > order-result.txt
fi
cat order-result.txt

cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x /root/q/lag.sh /root/q/replay.sh /root/q/consume.py
./lag.sh /root/q 10
