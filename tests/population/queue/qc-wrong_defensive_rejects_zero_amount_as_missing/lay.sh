#!/usr/bin/env bash
set -euo pipefail
Q=/root/q
mkdir -p "$Q"/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json "$Q/inbox/"
for f in consume.py schema.csv order-check.sql lag.sh replay.sh; do cp "$SUBMISSION/$f" "$Q/$f"; done
python3 "$Q/consume.py" 2> "$Q/consume.log" || { tail "$Q/consume.log"; exit 1; }
grep -c QUARANTINED "$Q/consume.log"
grep -oP 'DUPLICATE msg_id=\K\S+' "$Q/consume.log" | LC_ALL=C sort > "$Q/dup.txt"
{
    echo "file,reason"
    grep -oP 'QUARANTINED \K\S+ -> error/ \([a-z-]+' "$Q/consume.log" | sed 's| -> error/ (|,|'
} > "$Q/error.csv"
if out=$(sqlite3 "$Q/ledger.db" < "$Q/order-check.sql") && [[ -z $out ]]; then
    echo OK > "$Q/order-result.txt"
else
    printf '%s\n' "$out" > "$Q/order-result.txt"
fi
"$Q/lag.sh" "$Q" 0
