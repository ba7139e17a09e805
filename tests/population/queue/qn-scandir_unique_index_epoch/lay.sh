set -e
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
head -c 400 /root/q/inbox/msg-0001.json; echo
# schema.csv was typed in a spreadsheet and saved as CSV (BOM, CRLF)
cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" \
   "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x /root/q/lag.sh /root/q/replay.sh /root/q/consume.py
cd /root/q
python3 consume.py > consume.log
cat consume.log
awk '$1 == "dup" {print $2}' consume.log | sort -u > dup.txt
{ echo "file,reason"; awk '$1 == "error" {print $2 "," $3}' consume.log; } > error.csv
ls done | wc -l; ls error | wc -l; ls processing | wc -l
sqlite3 ledger.db 'select count(*) from processed'
sqlite3 ledger.db < order-check.sql > order-result.txt
[ -s order-result.txt ] || echo OK > order-result.txt
cat dup.txt error.csv order-result.txt
./lag.sh /root/q 5 || echo "lag alarm: $?"
./lag.sh /root/q 0
./replay.sh nope.json || echo "replay refused: $?"
