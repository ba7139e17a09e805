mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cd /root/q
# what is in a message
jq . inbox/msg-0001.json
for f in inbox/*; do jq -r 'keys_unsorted | join(",")' "$f" 2>/dev/null || echo "BROKEN $f"; done | sort | uniq -c
cp "$SUBMISSION/schema.csv" .

cp "$SUBMISSION/consume.py" .
python3 consume.py
echo "done=$(ls done | wc -l) error=$(ls error | wc -l) processing=$(ls processing | wc -l)"
sqlite3 ledger.db '.schema processed'
sqlite3 ledger.db 'SELECT count(*) FROM processed'

# duplicates: msg_ids seen more than once among the good (done) messages
for f in done/*; do jq -r .msg_id "$f"; done | LC_ALL=C sort | uniq -d > dup.txt
cat dup.txt

# error reasons: jq cannot read it -> parse, else a field is missing
{
  echo file,reason
  for f in error/*; do
    if jq -e 'type == "object"' "$f" >/dev/null 2>&1; then r=missing-field; else r=parse; fi
    echo "${f#error/},$r"
  done
} > error.csv
cat error.csv

cp "$SUBMISSION/order-check.sql" .
sqlite3 ledger.db < order-check.sql > order-result.txt
[ -s order-result.txt ] || echo OK > order-result.txt
cat order-result.txt

cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" .
chmod +x lag.sh replay.sh
./lag.sh /root/q 10; echo "lag rc=$?"

./replay.sh msg-0017.json; echo "replay rc=$?"
./lag.sh /root/q 0; echo "lag rc=$?"
mv inbox/msg-0017.json error/     # put it back, I only wanted to see it move
./replay.sh nothing-here.json
ls inbox error
