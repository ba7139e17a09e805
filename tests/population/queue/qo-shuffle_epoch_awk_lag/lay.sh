set -e
install -d /root/q/inbox /root/q/processing /root/q/done /root/q/error
install -m 0644 -t /root/q/inbox /opt/lab/fixtures/eai/queue/inbox/*.json
cd /root/q
ls inbox | awk 'END { print NR " files" }'
awk 'FNR == 1 { print FILENAME ": " $0 }' inbox/msg-0001.json inbox/msg-0006.json inbox/msg-0017.json
cp "$SUBMISSION/schema.csv" .
cp "$SUBMISSION/consume.py" .
python3 consume.py | tee consume.out
awk -F'\t' '{ c[$1]++ } END { for (k in c) print k, c[k] }' consume.out
printf '%s' "$(awk -F'\t' '$1 == "dup" { print $3 }' consume.out | sort)" > dup.txt
printf '%s' "$(echo file,reason; awk -F'\t' '$1 == "error" { print $2 "," $3 }' consume.out | sort)" > error.csv
cp "$SUBMISSION/order-check.sql" .
n=$(sqlite3 ledger.db < order-check.sql | awk 'END { print NR }')
if [ "$n" -eq 0 ]; then printf OK > order-result.txt; else sqlite3 ledger.db < order-check.sql > order-result.txt; fi
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" .
chmod +x lag.sh replay.sh
./lag.sh /root/q 10; echo "lag exit $?"
./replay.sh msg-0001.json || echo "replay exit $?"
