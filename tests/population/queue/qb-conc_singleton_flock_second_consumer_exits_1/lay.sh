mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
cd /root/q
cp "$SUBMISSION"/consume.py "$SUBMISSION"/order-check.sql "$SUBMISSION"/schema.csv "$SUBMISSION"/lag.sh "$SUBMISSION"/replay.sh .
chmod +x consume.py lag.sh replay.sh
./consume.py > consume.out
cat consume.out
awk -F'\t' '$1 == "DUP" {print $3}' consume.out | sort > dup.txt
{ echo "file,reason"; awk -F'\t' '$1 == "ERROR" {print $2 "," $3}' consume.out; } > error.csv
rm consume.out
cat dup.txt error.csv
r=$(sqlite3 ledger.db < order-check.sql)
[ -z "$r" ] && echo OK > order-result.txt
./lag.sh /root/q 0; echo $?
