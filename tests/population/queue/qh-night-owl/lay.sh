# 새벽 세 시의 작업 기록 (history 에서 정리)
set -e
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l            # 20

# 메시지 구조 보고 schema.csv 작성 (vim)
head -c 300 /root/q/inbox/msg-0001.json; echo
cp "$SUBMISSION/schema.csv" /root/q/schema.csv

cp "$SUBMISSION/consume.py" "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" "$SUBMISSION/order-check.sql" /root/q/
chmod +x /root/q/consume.py /root/q/lag.sh /root/q/replay.sh
cd /root/q
./consume.py                         # dup.txt, error.csv 도 여기서 써짐

ls done | wc -l; ls error | wc -l
sqlite3 ledger.db 'select count(*) from processed'
cat dup.txt error.csv

# 순서 검증: 결과가 비어 있으면 OK
result=$(sqlite3 -header ledger.db < order-check.sql)
if [ -z "$result" ]; then
    printf 'OK\n(0 rows, order-check.sql %s)\n' "$(date '+%Y-%m-%d %H:%M')" > order-result.txt
else
    printf 'NG\n%s\n' "$result" > order-result.txt
fi
cat order-result.txt

./lag.sh /root/q 10 || echo "lag exit $?"
