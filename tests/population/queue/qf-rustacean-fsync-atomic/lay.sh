set -euo pipefail
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cp "$SUBMISSION/schema.csv" /root/q/schema.csv
cp "$SUBMISSION/consume.py" "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" "$SUBMISSION/order-check.sql" /root/q/
chmod +x /root/q/consume.py /root/q/lag.sh /root/q/replay.sh
cd /root/q
python3 consume.py
ls done | wc -l; ls error | wc -l
sqlite3 ledger.db 'SELECT COUNT(*) FROM processed'
cat dup.txt error.csv
out=$(sqlite3 ledger.db < order-check.sql)
if [ -z "$out" ]; then
    echo OK > order-result.txt
else
    printf '%s\n' "$out" > order-result.txt
fi
cat order-result.txt
./lag.sh /root/q 0
