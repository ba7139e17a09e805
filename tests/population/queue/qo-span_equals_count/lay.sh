set -e
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
cd /root/q
ls inbox | wc -l
cp "$SUBMISSION/schema.csv" .
cp "$SUBMISSION/consume.py" .
python3 consume.py > consume.tsv
awk -F'\t' '$2 == "dup" { print $3 }' consume.tsv | sort > dup.txt
{ echo file,reason; awk -F'\t' '$2 == "error" { print $1 "," $3 }' consume.tsv; } > error.csv
cp "$SUBMISSION/order-check.sql" .
# sanity check of the query on a scratch copy: drop seq 3 of ORD-18699, then duplicate it
cp ledger.db /tmp/scratch.db
sqlite3 /tmp/scratch.db "DELETE FROM processed WHERE order_no = 'ORD-18699' AND seq = 3"
sqlite3 /tmp/scratch.db < order-check.sql
sqlite3 /tmp/scratch.db "INSERT INTO processed VALUES ('m-test', 'ORD-18700', 2, 1, 'x')"
sqlite3 /tmp/scratch.db < order-check.sql
rm /tmp/scratch.db
out=$(sqlite3 ledger.db < order-check.sql)
if [ -z "$out" ]; then echo OK > order-result.txt; else printf '%s\n' "$out" > order-result.txt; fi
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" .
chmod +x lag.sh replay.sh
./lag.sh /root/q 0
./replay.sh msg-0001.json || true
