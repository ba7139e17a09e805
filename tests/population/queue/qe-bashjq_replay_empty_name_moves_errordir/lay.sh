set -e
mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
cd /root/q
ls inbox | wc -l

# step 2: fields of a valid message, type from jq, integer for the ordering field
{
  echo "field,type,role"
  jq -r 'to_entries[]
         | "\(.key),\(if .key == "seq" then "integer" else (.value | type) end),\(
              if .key == "msg_id" then "idempotency-key" elif .key == "seq" then "sequence" else "" end)"' \
     inbox/msg-0001.json
} > schema.csv
cat schema.csv

# step 3
cp "$SUBMISSION/consume.py" .
python3 consume.py
sqlite3 ledger.db '.schema processed'

# step 4
ls done | wc -l; ls error | wc -l
sqlite3 ledger.db 'select count(*) from processed'
jq -r .msg_id done/*.json | sort | uniq -d > dup.txt
cat dup.txt

# step 5
{
  echo "file,reason"
  for f in error/*; do
    if jq -e 'type == "object"' "$f" >/dev/null 2>&1; then
      echo "$(basename "$f"),missing-field"
    else
      echo "$(basename "$f"),parse"
    fi
  done
} > error.csv
cat error.csv

# step 6
cp "$SUBMISSION/order-check.sql" .
sqlite3 ledger.db < order-check.sql > /root/order-rows
if [ -s /root/order-rows ]; then cp /root/order-rows order-result.txt; else echo OK > order-result.txt; fi
cat order-result.txt

# steps 7, 8
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" .
chmod +x lag.sh replay.sh
./lag.sh /root/q 20
./replay.sh nosuch.json || echo "replay refused: $?"
