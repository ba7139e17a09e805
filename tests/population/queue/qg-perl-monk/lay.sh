set -e
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
cd /root/q
cp "$SUBMISSION"/consume.py "$SUBMISSION"/schema.csv "$SUBMISSION"/order-check.sql "$SUBMISSION"/lag.sh "$SUBMISSION"/replay.sh .
chmod +x consume.py lag.sh replay.sh
python3 consume.py > consume.log
cat consume.log
perl -lane 'print $F[1] if $F[0] eq "dup"' consume.log | sort > dup.txt
perl -lane 'BEGIN { print "file,reason" } print "$F[1],$F[2]" if $F[0] eq "error"' consume.log > error.csv
out=$(sqlite3 ledger.db < order-check.sql)
if [ -z "$out" ]; then echo OK > order-result.txt; else printf '%s\n' "$out" > order-result.txt; fi
cat dup.txt error.csv order-result.txt
./lag.sh /root/q 3 || echo "backlog!"
# try replay on something that is not there
./replay.sh nope.json || true
