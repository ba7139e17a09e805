#!/bin/bash
mkdir -p /root/q
cd /root/q || exit 1
for d in inbox processing done error; do mkdir -p "$d"; done
cp /opt/lab/fixtures/eai/queue/inbox/*.json inbox/
echo "inbox: $(ls inbox | wc -l)"

cp "$SUBMISSION"/schema.csv "$SUBMISSION"/consume.py "$SUBMISSION"/order-check.sql ./
cp "$SUBMISSION"/lag.sh "$SUBMISSION"/replay.sh ./ && chmod +x ./*.sh

python3 consume.py > run.txt
cat run.txt
sed -n 's/^DUP //p' run.txt | sort > dup.txt
printf 'file,reason\n' > error.csv
sed -n 's/^ERR \([^ ]*\) \(.*\)$/\1,\2/p' run.txt >> error.csv

sqlite3 ledger.db < order-check.sql | tee order-result.txt
[ -s order-result.txt ] || echo "OK" > order-result.txt
./lag.sh /root/q 20 && echo lag-ok
