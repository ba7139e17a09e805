set -euo pipefail
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
test "$(ls /root/q/inbox | wc -l)" -eq 20
for f in schema.csv consume.py order-check.sql lag.sh replay.sh; do
    install -m 0755 "$SUBMISSION/$f" /root/q/
done
chmod 0644 /root/q/schema.csv /root/q/order-check.sql
cd /root/q
python3 consume.py            # writes dup.txt and error.csv itself
cat dup.txt error.csv
result=$(sqlite3 -header -csv ledger.db < order-check.sql)
if [[ -z $result ]]; then
    printf 'OK\nchecked %s orders at %s\n' "$(sqlite3 ledger.db 'select count(distinct order_no) from processed')" "$(date -Is)" > order-result.txt
else
    printf '%s\n' "$result" > order-result.txt
fi
./lag.sh /root/q 100
