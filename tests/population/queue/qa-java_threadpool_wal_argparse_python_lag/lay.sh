set -euo pipefail
install -d /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
echo "inbox: $(ls /root/q/inbox | wc -l)"
cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x /root/q/consume.py /root/q/lag.sh /root/q/replay.sh
/root/q/consume.py
grep -o 'DUPLICATE msg_id=[^ ]*' /root/q/consume.log | cut -d= -f2 | sort -u > /root/q/dup.txt
sqlite3 -csv -header /root/q/ledger.db "SELECT file, reason FROM rejected ORDER BY file" > /root/q/error.csv
out=$(sqlite3 /root/q/ledger.db < /root/q/order-check.sql)
if [[ -z "$out" ]]; then echo OK > /root/q/order-result.txt; else echo "$out" > /root/q/order-result.txt; fi
/root/q/lag.sh /root/q 20
