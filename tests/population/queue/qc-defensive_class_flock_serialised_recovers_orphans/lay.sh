#!/usr/bin/env bash
set -euo pipefail
Q=/root/q
mkdir -p "$Q"/inbox "$Q"/processing "$Q"/done "$Q"/error
cp -v /opt/lab/fixtures/eai/queue/inbox/*.json "$Q"/inbox/ | wc -l
for f in consume.py schema.csv order-check.sql lag.sh replay.sh; do
    install -m "$( [[ $f == *.sh || $f == *.py ]] && echo 755 || echo 644 )" "$SUBMISSION/$f" "$Q/$f"
done
# first attempt was interrupted (Ctrl-C in the middle) -- simulate what happened:
# one file was left behind in processing/, the second run picked it up again.
mv "$Q"/inbox/msg-0009.json "$Q"/processing/
"$Q"/consume.py
"$Q"/consume.py          # second run: must be a no-op
sqlite3 "$Q"/ledger.db 'SELECT COUNT(*) FROM processed'
cat "$Q"/dup.txt "$Q"/error.csv
if [[ -z $(sqlite3 "$Q"/ledger.db < "$Q"/order-check.sql) ]]; then
    echo OK > "$Q"/order-result.txt
else
    sqlite3 -header -column "$Q"/ledger.db < "$Q"/order-check.sql > "$Q"/order-result.txt
fi
"$Q"/lag.sh "$Q" 0
