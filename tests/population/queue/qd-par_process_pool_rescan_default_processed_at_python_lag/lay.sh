mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cd /root/q
for f in inbox/*.json; do jq -c 'to_entries | map(.key + ":" + (.value | type))' "$f" 2>&1; done | sort | uniq -c

cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" \
   "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x consume.py lag.sh replay.sh

python3 consume.py > run.json
cat run.json
ls done | wc -l; ls error | wc -l; ls processing | wc -l
sqlite3 ledger.db '.schema processed'
sqlite3 ledger.db 'SELECT worker_pid, COUNT(*) FROM processed GROUP BY worker_pid; SELECT COUNT(*) FROM processed;'

jq -r '.duplicates[]' run.json > dup.txt
jq -r '"file,reason", (.errors[] | "\(.file),\(.reason)")' run.json > error.csv
cat dup.txt error.csv

sqlite3 ledger.db < order-check.sql > order-result.txt
[ -s order-result.txt ] || echo OK > order-result.txt
cat order-result.txt

./lag.sh /root/q 1; echo "rc=$?"
./lag.sh /root/q 2; echo "rc=$?"
./replay.sh msg-0006.json & ./replay.sh msg-0006.json & wait
ls inbox error
./lag.sh /root/q 0; echo "rc=$?"
python3 consume.py > run-replay.json
jq -c .errors run-replay.json
./replay.sh missing.json; echo "rc=$?"
ls done | wc -l; ls error | wc -l; ls inbox | wc -l
