# Lab steps as performed
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l

python3 -m json.tool /root/q/inbox/msg-0001.json
cp "$SUBMISSION/schema.csv" /root/q/schema.csv

cp "$SUBMISSION/consume.py" /root/q/consume.py
cd /root/q
python3 consume.py
echo "done=$(ls done | wc -l) error=$(ls error | wc -l) rows=$(sqlite3 ledger.db 'SELECT COUNT(*) FROM processed')"
cat dup.txt error.csv

cp "$SUBMISSION/order-check.sql" /root/q/order-check.sql
if [ -z "$(sqlite3 ledger.db < order-check.sql)" ]; then
    echo "OK" > order-result.txt
else
    sqlite3 ledger.db < order-check.sql > order-result.txt
fi
cat order-result.txt

cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod 755 lag.sh replay.sh consume.py
./lag.sh /root/q 0
