#!/usr/bin/env bash
# Steps as performed in the lab pod.
set -euo pipefail
Q=/root/q
install -d -m 0755 "$Q"/{inbox,processing,done,error}
cp -p /opt/lab/fixtures/eai/queue/inbox/*.json "$Q/inbox/"
n=$(find "$Q/inbox" -maxdepth 1 -type f -name '*.json' | wc -l)
[ "$n" -eq 20 ] || { echo "expected 20 fixtures, got $n" >&2; exit 1; }

install -m 0644 "$SUBMISSION/schema.csv" "$SUBMISSION/order-check.sql" "$Q/"
install -m 0755 "$SUBMISSION/consume.py" "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" "$Q/"

# run the consumer, keep its log next to the queue for the audit trail
python3 "$Q/consume.py" -v 2> "$Q/consume.log"
tail -n 1 "$Q/consume.log" >&2

# step 4: the ids the UNIQUE constraint rejected, from the log
grep -o 'DUPLICATE msg_id=[^ ]*' "$Q/consume.log" | cut -d= -f2 | LC_ALL=C sort -u > "$Q/dup.txt.tmp"
mv "$Q/dup.txt.tmp" "$Q/dup.txt"
sqlite3 "$Q/ledger.db" 'SELECT COUNT(*) FROM processed' >&2

# step 5: error.csv is written by consume.py (atomic rewrite from error/)
cat "$Q/error.csv" >&2

# step 6
out=$(sqlite3 -bail "$Q/ledger.db" < "$Q/order-check.sql")
if [ -z "$out" ]; then
    printf 'OK\n-- order-check.sql returned 0 rows on %s\n' "$(date -u +%FT%TZ)" > "$Q/order-result.txt"
else
    printf '%s\n' "$out" > "$Q/order-result.txt"
fi

"$Q/lag.sh" "$Q" 100 || true
