set -e
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cd /root/q
# looked at the messages first
head -c 300 inbox/msg-0001.json; echo
cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" \
   "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x consume.py lag.sh replay.sh
python3 consume.py > run.log
cat run.log
awk -F'\t' '$1 == "dup" { print $2 }' run.log | LC_ALL=C sort -u > dup.txt
{ echo "file,reason"; awk -F'\t' '$1 == "error" { print $2 "," $3 }' run.log; } > error.csv
ls done | wc -l; ls error | wc -l
sqlite3 ledger.db 'SELECT COUNT(*) FROM processed'
sqlite3 ledger.db < order-check.sql > order-check.out
if [ -s order-check.out ]; then cp order-check.out order-result.txt; else echo OK > order-result.txt; fi
rm order-check.out
./lag.sh /root/q 10 || true
cat dup.txt error.csv order-result.txt
