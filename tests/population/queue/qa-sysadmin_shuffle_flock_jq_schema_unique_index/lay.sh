mkdir -p /root/q/{inbox,processing,done,error}
cp -v /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/ | wc -l
cd /root/q
# step 2: let jq tell me the structure of a good message, fix seq to integer
{
  echo "field,type,role"
  jq -r 'to_entries[] | [ .key,
        (if .key == "seq" then "integer" else (.value | type) end),
        (if .key == "msg_id" then "idempotency-key" elif .key == "seq" then "sequence" else "" end) ] | @csv' inbox/msg-0001.json
} > schema.csv
cat schema.csv
install -m 755 "$SUBMISSION"/consume.py "$SUBMISSION"/lag.sh "$SUBMISSION"/replay.sh /root/q/
install -m 644 "$SUBMISSION"/order-check.sql /root/q/
./consume.py
ls done | wc -l; ls error | wc -l
sqlite3 ledger.db 'select count(*) from processed'
cat dup.txt error.csv
sqlite3 ledger.db < order-check.sql | tee order-result.txt
[ -s order-result.txt ] || echo OK > order-result.txt
./lag.sh /root/q 0; echo "rc=$?"
