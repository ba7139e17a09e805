# session on the lab VM (hand-made files were written in Notepad and copied over)
set -e
mkdir -p /root/q/{inbox,processing,done,error}
cp -p /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cd /root/q
head -c 300 inbox/msg-0001.json; echo
cp "$SUBMISSION/schema.csv" .
cp "$SUBMISSION/consume.py" .
python3 consume.py
ls done | wc -l; ls error | wc -l; ls processing | wc -l
sqlite3 ledger.db 'select count(*) from processed;'
grep '^DUP' consume.log
# dup.txt and error.csv typed from consume.log
cp "$SUBMISSION/dup.txt" "$SUBMISSION/error.csv" .
cp "$SUBMISSION/order-check.sql" .
sqlite3 -header ledger.db < order-check.sql
echo "(no rows)"
cp "$SUBMISSION/order-result.txt" .
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" .
chmod +x lag.sh replay.sh
./lag.sh /root/q 5
./replay.sh msg-9999.json || echo "exit $?"
