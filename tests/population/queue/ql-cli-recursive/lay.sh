#!/bin/bash
mkdir -p /root/q
cd /root/q
mkdir -p inbox processing done error
cp /opt/lab/fixtures/eai/queue/inbox/*.json inbox/
ls inbox | wc -l        # 20

cp "$SUBMISSION/schema.csv" .      # 메모장에서 UTF-8 로 저장함 (BOM 붙음)
cp "$SUBMISSION/consume.py" .
python3 consume.py

# 결과 확인
for d in done error processing; do echo "$d $(ls $d | wc -l)"; done
sqlite3 ledger.db 'SELECT COUNT(*) FROM processed;'

# dup.txt : done 에 두 번 이상 나온 msg_id
jq -r '.msg_id' done/*.json | LC_ALL=C sort | uniq -d > dup.txt
cat dup.txt

# error.csv : jq 로 파싱 안되면 parse, 되면 missing-field
echo "file,reason" > error.csv
for f in error/*; do
    if jq -e . "$f" >/dev/null 2>&1; then
        echo "$(basename "$f"),missing-field" >> error.csv
    else
        echo "$(basename "$f"),parse" >> error.csv
    fi
done

cp "$SUBMISSION/order-check.sql" .
sqlite3 ledger.db < order-check.sql > order-result.txt
[ -s order-result.txt ] || echo OK > order-result.txt
cat order-result.txt

cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" .
chmod 755 lag.sh replay.sh
./lag.sh /root/q 5; echo "rc=$?"
