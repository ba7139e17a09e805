# 실습하면서 친 명령들 (순서대로)
set -e
# 1. 큐 디렉터리 구성
mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l   # 20 확인

# 2. 메시지 구조 파악 — head 로 몇 개 보고 schema.csv 작성
head -n 3 /root/q/inbox/msg-0001.json
cp "$SUBMISSION/schema.csv" /root/q/schema.csv

# 3. 소비자
cp "$SUBMISSION/consume.py" /root/q/consume.py
python3 /root/q/consume.py

# 4. 결과 확인 (dup.txt, error.csv 는 consume.py 가 씀)
ls /root/q/done | wc -l
ls /root/q/error | wc -l
sqlite3 /root/q/ledger.db 'select count(*) from processed;'
sqlite3 /root/q/ledger.db '.schema processed'
cat /root/q/dup.txt /root/q/error.csv

# 6. 순서 검증  (bash 변수 이름은 한글이 안 됨 -> result)
cp "$SUBMISSION/order-check.sql" /root/q/order-check.sql
result=$(sqlite3 /root/q/ledger.db < /root/q/order-check.sql)
if [ -z "$result" ]; then
    printf 'OK\n(문제 0행)\n' > /root/q/order-result.txt
else
    printf '%s\n' "$result" > /root/q/order-result.txt
fi

# 7, 8. 스크립트
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x /root/q/lag.sh /root/q/replay.sh
/root/q/lag.sh /root/q 5 && echo "정상"
/root/q/replay.sh 없는파일.json || echo "예상대로 실패: $?"
