mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cd /root/q
python3 -m json.tool inbox/msg-0001.json
for f in inbox/*.json; do python3 -m json.tool "$f" >/dev/null 2>&1 || echo "broken: $f"; done
grep -L '"amount"' inbox/*.json
cp "$SUBMISSION/schema.csv" .

cp "$SUBMISSION/consume.py" .
python3 consume.py 2> consume.log
echo "consume.py exit code: $?   (1 = some messages went to error/, as designed)"
cat consume.log
ls done | wc -l; ls error | wc -l; ls processing | wc -l
sqlite3 ledger.db '.schema processed' 'SELECT COUNT(*) FROM processed'

# dup.txt / error.csv from the consumer's log
grep 'duplicate msg_id' consume.log | awk '{print $5}' | sort > dup.txt
cat dup.txt
{ echo "file,reason"; grep -- '-> error/' consume.log | awk '{sub(":", "", $2); print $2 "," $3}' | sort; } > error.csv
cat error.csv

cp "$SUBMISSION/order-check.sql" .
if [ -z "$(sqlite3 ledger.db < order-check.sql)" ]; then
    echo OK > order-result.txt
else
    sqlite3 -header ledger.db < order-check.sql > order-result.txt
fi
cat order-result.txt

cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" .
chmod +x lag.sh replay.sh consume.py
./lag.sh /root/q 3; echo "lag: $?"
./replay.sh msg-0017.json; echo "replay: $?"
./lag.sh /root/q 0; echo "lag: $?"
python3 consume.py 2>>consume.log; echo "consume.py exit code: $?"
./replay.sh msg-9999.json; echo "replay: $?"
ls done | wc -l; ls error | wc -l
