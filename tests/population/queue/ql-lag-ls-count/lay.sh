#!/bin/bash
mkdir -p /root/q && cd /root/q && mkdir -p inbox processing done error
cp /opt/lab/fixtures/eai/queue/inbox/*.json inbox/ && echo "copied $(ls inbox | wc -l)"
for f in schema.csv consume.py order-check.sql lag.sh replay.sh; do
    cp "$SUBMISSION/$f" .
done
chmod +x lag.sh replay.sh

python3 consume.py

# dup.txt: done 안에서 msg_id 가 2번 이상 나온 것
cat done/*.json | grep -o '"msg_id": *"[^"]*"' | awk -F'"' '{c[$4]++} END {for (k in c) if (c[k] > 1) print k}' | sort > dup.txt
cat dup.txt

# error.csv
echo "file,reason" > error.csv
for f in error/*.json; do
    if python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$f" 2>/dev/null; then
        echo "${f#error/},missing-field"
    else
        echo "${f#error/},parse"
    fi
done >> error.csv
cat error.csv

sqlite3 ledger.db < order-check.sql > order-result.txt
test -s order-result.txt || echo OK > order-result.txt

./lag.sh /root/q 3; echo "exit=$?"
