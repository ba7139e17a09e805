# what I typed, in order
set -e
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l            # 20

cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" \
   "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x /root/q/consume.py /root/q/lag.sh /root/q/replay.sh

cd /root/q
./consume.py > consume.log
cat consume.log
ls done | wc -l; ls error | wc -l   # 18 2
sqlite3 ledger.db 'select count(*) from processed'   # 15

grep '^DUP ' consume.log | awk '{print $2}' | sort > dup.txt
{ echo file,reason; grep '^ERR ' consume.log | awk '{print $2 "," $3}' | sort; } > error.csv
rm consume.log

out=$(sqlite3 ledger.db < order-check.sql)
if [ -z "$out" ]; then echo OK > order-result.txt; else printf '%s\n' "$out" > order-result.txt; fi
cat order-result.txt

./lag.sh /root/q 10; echo "exit $?"
./replay.sh nope.json || echo "exit $?"
