#!/bin/bash
Q=/root/q
mkdir -p $Q/inbox $Q/processing $Q/done $Q/error
find /opt/lab/fixtures/eai/queue/inbox -maxdepth 1 -type f -name '*.json' -exec cp {} $Q/inbox/ \;
find $Q/inbox -type f | wc -l

cp "$SUBMISSION"/schema.csv "$SUBMISSION"/consume.py "$SUBMISSION"/order-check.sql $Q/
cp "$SUBMISSION"/lag.sh "$SUBMISSION"/replay.sh $Q/
chmod +x $Q/*.sh

cd $Q
python3 consume.py --procs=3
./lag.sh --queue=$Q --threshold=0

# 4. dup.txt / 5. error.csv : audit 테이블에서
sqlite3 ledger.db "SELECT msg_id FROM audit WHERE outcome = 'dup' ORDER BY msg_id;" > dup.txt
sqlite3 -header -csv ledger.db "SELECT file, outcome AS reason FROM audit WHERE outcome IN ('parse','missing-field') ORDER BY file;" > error.csv
cat dup.txt error.csv

# 6.
R=$(sqlite3 ledger.db < order-check.sql)
if [ -z "$R" ]; then echo OK; else echo "$R"; fi > order-result.txt
cat order-result.txt
