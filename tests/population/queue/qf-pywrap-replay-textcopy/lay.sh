mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
for f in schema.csv consume.py lag.sh replay.sh replay.py order-check.sql; do
    cp "$SUBMISSION/$f" /root/q/
done
chmod +x /root/q/lag.sh /root/q/replay.sh /root/q/replay.py
cd /root/q
python3 consume.py
echo "done=$(ls done | wc -l) error=$(ls error | wc -l) rows=$(sqlite3 ledger.db 'select count(*) from processed')"
cat dup.txt error.csv
sqlite3 ledger.db < order-check.sql > order-result.txt
[ -s order-result.txt ] || echo OK > order-result.txt
cat order-result.txt
./lag.sh /root/q 20
# tried the replay on a name that is not there
./replay.sh nothing.json || echo "replay refused, good"
