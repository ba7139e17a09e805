set -e
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls -1 /root/q/inbox | wc -l

cp "$SUBMISSION/schema.csv" /root/q/
cp "$SUBMISSION/consume.py" /root/q/
cd /root/q
python3 consume.py 2>&1 | tee /root/consume.log

ls done | wc -l; ls error | wc -l; ls processing | wc -l
sqlite3 ledger.db "SELECT COUNT(*) FROM processed;"
# dup.txt from the log lines; error.csv typed from the two "rejected" WARNING lines
grep 'duplicate ' /root/consume.log | sed 's/.*msg_id=\([^)]*\)).*/\1/' | sort > dup.txt
grep 'rejected ' /root/consume.log
printf 'file,reason\nmsg-0006.json,parse\nmsg-0017.json,missing-field\n' > error.csv
cat dup.txt error.csv

cp "$SUBMISSION/order-check.sql" /root/q/
if [ -z "$(sqlite3 ledger.db < order-check.sql)" ]; then echo OK > order-result.txt; fi
cat order-result.txt

cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod 755 lag.sh replay.sh
./lag.sh /root/q 20
