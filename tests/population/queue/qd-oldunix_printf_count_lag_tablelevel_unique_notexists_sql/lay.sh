# 1. queue dirs + fixtures
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
# look at the messages
cd /root/q
head -c 300 inbox/msg-0001.json; echo
for f in inbox/*.json; do jq -c 'keys' "$f" 2>/dev/null || echo "$f: not json"; done | sort | uniq -c

# 2.-8. my files
cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" \
   "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod 755 consume.py lag.sh replay.sh

# 3. run the consumer, keep its log
python3 consume.py > consume.log
cat consume.log
ls done | wc -l; ls error | wc -l; ls processing | wc -l
sqlite3 ledger.db '.schema processed'
sqlite3 ledger.db 'select count(*) from processed'

# 4. duplicates from the log
awk '$1 == "DUP" { print $2 }' consume.log | LC_ALL=C sort -u > dup.txt
cat dup.txt

# 5. error reasons from the log
{ echo file,reason; awk '$1 == "ERR" { print $3 "," $2 }' consume.log | LC_ALL=C sort; } > error.csv
cat error.csv

# 6. order check
r=$(sqlite3 ledger.db < order-check.sql)
if [ -z "$r" ]; then echo OK > order-result.txt; else printf '%s\n' "$r" > order-result.txt; fi
cat order-result.txt

# 7. lag
./lag.sh /root/q 5; echo "rc=$?"
./lag.sh /root/q 0; echo "rc=$?"

# 8. replay: round trip with a poison file, then a name that is not there
./replay.sh msg-0006.json; echo "rc=$?"
./lag.sh /root/q 0; echo "rc=$?"
python3 consume.py > consume-2.log
cat consume-2.log
./replay.sh no-such.json; echo "rc=$?"
./replay.sh ../done/msg-0001.json; echo "rc=$?"
ls done | wc -l; ls error | wc -l
