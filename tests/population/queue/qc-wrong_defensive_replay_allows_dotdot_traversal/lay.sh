#!/usr/bin/env bash
set -euo pipefail
Q=/root/q
mkdir -p "$Q/inbox" "$Q/processing" "$Q/done" "$Q/error"
cp /opt/lab/fixtures/eai/queue/inbox/*.json "$Q/inbox/"
test "$(ls "$Q/inbox" | wc -l)" -eq 20
cp "$SUBMISSION"/consume.py "$SUBMISSION"/lag.sh "$SUBMISSION"/replay.sh "$SUBMISSION"/schema.csv "$SUBMISSION"/order-check.sql "$Q/"
chmod 755 "$Q"/consume.py "$Q"/lag.sh "$Q"/replay.sh
"$Q/consume.py" 2>&1 | tee "$Q/consume.log"
# duplicates from the consumer log
sed -n 's/.*duplicate msg_id=\([^ ]*\).*/\1/p' "$Q/consume.log" | sort -u > "$Q/dup.txt"
# reasons from the consumer log
{
    echo "file,reason"
    sed -n 's/.*quarantined \([^ ]*\) reason=\(.*\)$/\1,\2/p' "$Q/consume.log"
} > "$Q/error.csv"
result=$(sqlite3 "$Q/ledger.db" < "$Q/order-check.sql")
if [[ -z $result ]]; then echo "OK" > "$Q/order-result.txt"; else echo "$result" > "$Q/order-result.txt"; fi
"$Q/lag.sh" "$Q" 20
