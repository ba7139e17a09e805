#!/bin/bash
cd /root
mkdir -p q/inbox q/processing q/done q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json q/inbox/
ls q/inbox | wc -l
cp $SUBMISSION/schema.csv $SUBMISSION/consume.py $SUBMISSION/order-check.sql q/
cp $SUBMISSION/lag.sh $SUBMISSION/replay.sh q/
chmod u+x q/lag.sh q/replay.sh

cd q
python3 consume.py > consume.log
cat consume.log
awk '$1 == "DUP" {print $2}' consume.log | sort > dup.txt
( echo file,reason; awk '$1 == "ERROR" {print $2 "," $3}' consume.log ) > error.csv

sqlite3 ledger.db < order-check.sql > order-result.txt
[ -s order-result.txt ] || echo OK > order-result.txt
./lag.sh /root/q 0; echo "lag rc $?"

# replay 한번 해보기: error -> inbox -> 다시 consume -> 또 error 로 가야 정상
./replay.sh msg-0006.json && ls inbox
python3 consume.py >> consume.log
ls error
