# Steps as I ran them in the pod.
set -eu
Q=/root/q
mkdir -p $Q/inbox $Q/processing $Q/done $Q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json $Q/inbox/
test "$(ls $Q/inbox | wc -l)" -eq 20

# step 2: look at the keys of every parsable message
for f in $Q/inbox/*.json; do jq -r 'keys_unsorted | join(",")' "$f" 2>/dev/null || true; done | sort | uniq -c
cp "$SUBMISSION/schema.csv" $Q/

# step 3
cp "$SUBMISSION/consume.py" $Q/
python3 $Q/consume.py

# step 4: duplicates = msg_ids that more than one done/ file carries
jq -r .msg_id $Q/done/*.json | sort | uniq -d > $Q/dup.txt
cat $Q/dup.txt
sqlite3 $Q/ledger.db 'SELECT COUNT(*) FROM processed;'

# step 5: reason per error file, decided with jq (unparsable vs. parsable)
{
    echo "file,reason"
    for f in $Q/error/*; do
        if jq -e 'type == "object"' "$f" >/dev/null 2>&1; then
            echo "$(basename "$f"),missing-field"
        else
            echo "$(basename "$f"),parse"
        fi
    done
} > $Q/error.csv
cat $Q/error.csv

# step 6
cp "$SUBMISSION/order-check.sql" $Q/
rows=$(sqlite3 $Q/ledger.db < $Q/order-check.sql)
if [ -z "$rows" ]; then echo OK > $Q/order-result.txt; else echo "$rows" > $Q/order-result.txt; fi

# steps 7, 8
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" $Q/
chmod 755 $Q/lag.sh $Q/replay.sh $Q/consume.py
$Q/lag.sh $Q 0
sh $Q/replay.sh does-not-exist.json || echo "replay refused ($?)"
