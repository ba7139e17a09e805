#!/bin/bash
# 1. 큐 디렉터리
mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l

# 2. schema.csv (엑셀에서 저장해서 CRLF)
cp "$SUBMISSION/schema.csv" /root/q/schema.csv

# 3. consume
cp "$SUBMISSION/consume.py" /root/q/consume.py
cd /root/q
python3 consume.py | tee run.log

# 4. dup.txt : 로그에서 DUP 만
grep '^DUP ' run.log | awk '{print $2}' | LC_ALL=C sort -u > dup.txt

# 5. error.csv
{
    echo "file,reason"
    grep '^ERR ' run.log | awk '{print $2 "," $3}'
} > error.csv

# 6. order-check
cp "$SUBMISSION/order-check.sql" /root/q/order-check.sql
out=$(sqlite3 ledger.db < order-check.sql)
if [ -z "$out" ]; then
    echo OK > order-result.txt
else
    echo "$out" > order-result.txt
fi

# 7, 8
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x /root/q/lag.sh /root/q/replay.sh
./lag.sh /root/q 100
echo "lag exit=$?"
