# 실습 기록
set -euo pipefail
mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
[[ $(ls /root/q/inbox | wc -l) -eq 20 ]]
cd /root/q

# 2. 메시지 구조
python3 -m json.tool inbox/msg-0001.json
cp "$SUBMISSION/schema.csv" .

# 3. 소비자
cp "$SUBMISSION/consume.py" "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" "$SUBMISSION/order-check.sql" .
chmod +x consume.py lag.sh replay.sh
./consume.py 2> consume.log
cat consume.log

# 4. 결과 확인 + dup.txt (로그의 DUP 줄에서)
echo "done=$(ls done | wc -l) error=$(ls error | wc -l) rows=$(sqlite3 ledger.db 'SELECT COUNT(*) FROM processed')"
grep '^DUP ' consume.log | awk '{print $3}' | sort -u > dup.txt

# 5. error.csv (로그의 ERR 줄에서)
{ echo "file,reason"; grep '^ERR ' consume.log | awk '{print $2 "," $3}' | sort; } > error.csv

# 6. 순서 검증
out=$(sqlite3 ledger.db < order-check.sql)
if [[ -z $out ]]; then echo OK > order-result.txt; else printf 'NG\n%s\n' "$out" > order-result.txt; fi
cat dup.txt error.csv order-result.txt

# 7. 적체 감시
./lag.sh /root/q 20
