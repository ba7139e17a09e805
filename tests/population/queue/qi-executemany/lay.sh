# 1
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l

# 2 -- schema with the csv module
python3 - <<'PY'
import csv
rows = [("field", "type", "role"),
        ("msg_id", "text", "idempotency-key"),
        ("order_no", "text", ""),
        ("seq", "integer", "sequence"),
        ("amount", "integer", ""),
        ("currency", "text", ""),
        ("created_at", "text", "")]
with open("/root/q/schema.csv", "w", newline="") as fh:
    csv.writer(fh, lineterminator="\n").writerows(rows)
PY

# 3
cp "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x /root/q/lag.sh /root/q/replay.sh
cd /root/q
python3 consume.py
sqlite3 ledger.db 'PRAGMA journal_mode; SELECT COUNT(*) FROM processed; SELECT COUNT(*) FROM receipt;'

# 4 -- a msg_id received more than once was ignored the 2nd time
sqlite3 ledger.db "SELECT msg_id FROM receipt GROUP BY msg_id HAVING COUNT(*) > 1 ORDER BY msg_id;" > dup.txt
cat dup.txt

# 5
sqlite3 -header -csv ledger.db "SELECT file, reason FROM rejected ORDER BY file;" > error.csv
cat error.csv

# 6
out=$(sqlite3 ledger.db < order-check.sql)
if [ -z "$out" ]; then echo OK > order-result.txt; else printf '%s\n' "$out" > order-result.txt; fi
cat order-result.txt

# 7, 8
./lag.sh /root/q 0; echo "lag: $?"
./replay.sh msg-0042.json; echo "replay: $?"
ls processing | wc -l
