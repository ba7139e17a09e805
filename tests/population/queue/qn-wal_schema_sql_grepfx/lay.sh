set -eu
Q=/root/q
mkdir -p $Q/inbox $Q/processing $Q/done $Q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json $Q/inbox/
test "$(ls $Q/inbox | wc -l)" -eq 20
# look at the messages first
jq -c 'keys' $Q/inbox/*.json 2>&1 | sort | uniq -c
cp "$SUBMISSION"/schema.csv "$SUBMISSION"/schema.sql "$SUBMISSION"/consume.py \
   "$SUBMISSION"/order-check.sql "$SUBMISSION"/lag.sh "$SUBMISSION"/replay.sh $Q/
chmod u+x $Q/lag.sh $Q/replay.sh
sqlite3 $Q/ledger.db < $Q/schema.sql
python3 $Q/consume.py
sqlite3 $Q/ledger.db 'PRAGMA journal_mode; SELECT COUNT(*) FROM processed;'
# duplicates: msg_ids that occur in more than one file of done/
jq -r .msg_id $Q/done/*.json | sort | uniq -d > $Q/dup.txt
cat $Q/dup.txt
ls $Q/error
# error.csv written by hand after looking at the two files in error/
cp "$SUBMISSION"/error.csv $Q/error.csv
sqlite3 $Q/ledger.db < $Q/order-check.sql > $Q/order-result.txt
if [ "$(wc -c < $Q/order-result.txt)" -eq 0 ]; then echo OK > $Q/order-result.txt; fi
cat $Q/order-result.txt
$Q/lag.sh $Q 0
$Q/replay.sh msg-0001.json || true
