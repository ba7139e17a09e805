# Session log of the DBA intern, replayed in order.
set -eu
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
test "$(ls /root/q/inbox | wc -l)" -eq 20

# step 2: looked at the messages with jq, wrote schema.csv by hand
jq -c 'keys_unsorted' /root/q/inbox/*.json 2>/dev/null | sort | uniq -c || true
cp "$SUBMISSION/schema.csv" /root/q/schema.csv

# step 3
install -m 0755 "$SUBMISSION/consume.py" "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
install -m 0644 "$SUBMISSION/order-check.sql" /root/q/
cd /root/q
python3 consume.py
sqlite3 ledger.db '.schema processed'

# step 4/5: the ledger keeps what was ignored and what was rejected
sqlite3 ledger.db "SELECT COUNT(*) FROM processed;"
sqlite3 ledger.db "SELECT DISTINCT msg_id FROM dup_log ORDER BY msg_id;" > dup.txt
sqlite3 -csv -header ledger.db "SELECT file, reason FROM rejected ORDER BY file;" > error.csv
cat dup.txt error.csv

# step 6
sqlite3 -bail -header -column ledger.db < order-check.sql > /tmp/order-check.out
if [ ! -s /tmp/order-check.out ]; then
    { echo "OK"; echo "-- order-check.sql returned 0 rows at $(date -u +%Y-%m-%dT%H:%M:%SZ)"; } > order-result.txt
else
    { echo "NG"; cat /tmp/order-check.out; } > order-result.txt
fi
rm -f /tmp/order-check.out
cat order-result.txt

# step 7/8 smoke test
./lag.sh /root/q 5; echo "lag rc=$?"
