set -e
mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" /root/q/
python3 /root/q/consume.py -v | tee /root/q/consume.log
sqlite3 /root/q/ledger.db '.schema processed'
sqlite3 /root/q/ledger.db 'select count(*) from processed'
# dup.txt and error.csv typed from the log above
printf 'm-5297a97a7a\nm-74051d4ed7\nm-ab8bdb3938\n' > /root/q/dup.txt
printf 'file,reason\nmsg-0006.json,parse\nmsg-0017.json,missing-field\n' > /root/q/error.csv
cd /root/q
out=$(sqlite3 ledger.db < order-check.sql)
if [ -z "$out" ]; then echo OK > order-result.txt; else printf 'PROBLEM\n%s\n' "$out" > order-result.txt; fi
cat order-result.txt
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x lag.sh replay.sh
./lag.sh /root/q 0
