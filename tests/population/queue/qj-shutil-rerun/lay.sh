set -e
mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cd /root/q
cp "$SUBMISSION"/{schema.csv,consume.py,order-check.sql,lag.sh,replay.sh} .
chmod +x consume.py lag.sh replay.sh
python3 consume.py -v --dup-file dup.txt --error-csv error.csv
echo "done=$(ls done | wc -l) error=$(ls error | wc -l) processing=$(ls processing | wc -l)"
sqlite3 ledger.db 'SELECT COUNT(*) FROM processed'
cat dup.txt error.csv
rows=$(sqlite3 ledger.db < order-check.sql)
if [[ -z $rows ]]; then echo OK > order-result.txt; else printf '%s\n' "$rows" > order-result.txt; fi
cat order-result.txt
./lag.sh /root/q 0 || echo "backlog alarm, exit $?"
./replay.sh nope.json || echo "replay refused, exit $?"
