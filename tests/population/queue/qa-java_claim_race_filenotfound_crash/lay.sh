set -euo pipefail
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
for file in schema.csv consume.py order-check.sql lag.sh replay.sh; do cp "$SUBMISSION/$file" /root/q/; done
chmod 755 /root/q/consume.py /root/q/lag.sh /root/q/replay.sh
cd /root/q
python3 consume.py
cat dup.txt error.csv
result=$(sqlite3 ledger.db < order-check.sql)
if [[ -z $result ]]; then echo OK > order-result.txt; else echo "$result" > order-result.txt; fi
./lag.sh /root/q 20
