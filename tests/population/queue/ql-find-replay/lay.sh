#!/bin/bash
set -x
mkdir -p ~/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json ~/q/inbox/
ls ~/q/inbox | wc -l
cd ~/q
cp "$SUBMISSION"/{schema.csv,consume.py,order-check.sql,lag.sh,replay.sh} .
chmod +x *.sh
python3 consume.py | tee consume.out
awk -F'\t' '$1=="dup"{print $3}' consume.out | sort > dup.txt
{ echo "file,reason"; awk -F'\t' -v OFS=, '$1=="error"{print $2,$3}' consume.out; } > error.csv
sqlite3 ledger.db < order-check.sql > order-result.txt
[ -s order-result.txt ] || echo OK > order-result.txt
./lag.sh ~/q 0
# replay 테스트 해봄 -> 다시 돌려서 error 로 보냄
./replay.sh msg-0006.json && ls inbox
python3 consume.py
ls error done | head
