set -u
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
test "$(ls /root/q/inbox | wc -l)" -eq 20 && echo "20 files in inbox"
cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" \
   "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod 755 /root/q/consume.py /root/q/lag.sh /root/q/replay.sh
cd /root/q
python3 consume.py > consume.out
cat consume.out
test -z "$(ls processing)" && echo "processing empty"
echo "done=$(ls done | wc -l) error=$(ls error | wc -l) rows=$(sqlite3 ledger.db 'SELECT COUNT(*) FROM processed')"
grep '^DUP,' consume.out | cut -d, -f3 | sort > dup.txt
{ echo "file,reason"; grep '^ERROR,' consume.out | cut -d, -f2,3 | sort; } > error.csv
rm consume.out
cat dup.txt error.csv
sqlite3 ledger.db < order-check.sql > order-rows.tmp
if [ -s order-rows.tmp ]; then mv order-rows.tmp order-result.txt; else rm order-rows.tmp; echo OK > order-result.txt; fi
cat order-result.txt
./lag.sh /root/q 0; echo "lag exit=$?"
./replay.sh missing.json; echo "replay exit=$?"
