#!/bin/sh
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
for f in consume.py schema.csv order-check.sql lag.sh replay.sh; do cp -p "$SUBMISSION/$f" /root/q/; done
cd /root/q
python3 consume.py > consume.out
awk 'BEGIN { print "file,reason" } { print $2 "," $1 }' consume.out > error.csv
# msg_ids seen more than once in done/
cat done/*.json | awk -F'"msg_id": "' '{ split($2, a, "\""); n[a[1]]++ } END { for (k in n) if (n[k] > 1) print k }' | sort > dup.txt
sqlite3 ledger.db < order-check.sql > order-result.txt
test -s order-result.txt || echo OK > order-result.txt
./lag.sh /root/q 25
