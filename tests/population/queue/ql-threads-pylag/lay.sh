#!/bin/bash
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp -v /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/ | wc -l
cd /root/q
cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" .
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" .
chmod +x lag.sh replay.sh consume.py

./consume.py --workers 4 2> consume.err
cat consume.err

# dup.txt (중복 로그에서 id 만)
grep '^\[dup\]' consume.err | awk '{print $2}' | sort > dup.txt
cat error.csv

sqlite3 ledger.db < order-check.sql > order-result.txt
if [ ! -s order-result.txt ]; then echo OK > order-result.txt; fi

./lag.sh /root/q 0 && echo "no lag"
