set -eu
# step 1
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
(cd /opt/lab/fixtures/eai/queue/inbox && tar -cf - ./*.json) | tar -C /root/q/inbox -xf -
ls -1 /root/q/inbox | wc -l
cd /root/q
# step 2: which keys, in which messages
for f in inbox/*.json; do jq -c 'keys' "$f" 2>/dev/null || echo "unparsable: $f"; done | sort | uniq -c
cp "$SUBMISSION/schema.csv" schema.csv
# step 3
cp "$SUBMISSION/consume.py" consume.py
python3 consume.py > run.jsonl
# step 4
jq -s 'group_by(.result) | map({(.[0].result): length}) | add' run.jsonl
jq -r 'select(.result == "duplicate") | .msg_id' run.jsonl | sort > dup.txt
sqlite3 ledger.db 'SELECT COUNT(*) FROM processed'
# step 5
{ echo 'file,reason'; jq -r 'select(.result == "error") | [.file, .reason] | @csv' run.jsonl; } > error.csv
cat error.csv
# step 6
cp "$SUBMISSION/order-check.sql" order-check.sql
sqlite3 -bail ledger.db < order-check.sql > order-rows.txt
if [ -s order-rows.txt ]; then { echo 'NG'; cat order-rows.txt; } > order-result.txt; else echo 'OK' > order-result.txt; fi
rm order-rows.txt
# step 7, 8
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" .
chmod u+x lag.sh replay.sh
./lag.sh /root/q 0 && echo "lag ok"
./replay.sh '../done/msg-0001.json' || echo "refused ($?)"
