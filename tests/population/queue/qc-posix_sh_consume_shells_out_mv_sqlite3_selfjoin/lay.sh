#!/bin/sh
set -e
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
for f in consume.py schema.csv order-check.sql lag.sh replay.sh; do cp "$SUBMISSION/$f" /root/q/; done
cd /root/q
python3 consume.py > run.out
cat run.out
awk '$1 == "dup" { print $2 }' run.out | sort > dup.txt
{ echo file,reason; awk '$1 == "error" { print $3 "," $2 }' run.out; } > error.csv
sqlite3 ledger.db < order-check.sql > order-result.txt
[ -s order-result.txt ] || echo OK > order-result.txt
sh lag.sh /root/q 20
