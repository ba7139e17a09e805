mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x /root/q/lag.sh /root/q/replay.sh /root/q/consume.py
cd /root/q && python3 consume.py
sqlite3 -column -header ledger.db "SELECT kind, COUNT(*) n FROM events GROUP BY kind"
cat dup.txt error.csv
if [ "$(sqlite3 ledger.db < order-check.sql | wc -l)" -eq 0 ]; then
    echo OK > order-result.txt
fi
cat order-result.txt
