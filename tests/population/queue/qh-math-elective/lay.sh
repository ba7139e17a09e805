# 한 일 순서대로
mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
cd /root/q
ls inbox | wc -l
jq -c keys inbox/*.json 2>/dev/null | sort | uniq -c   # 하나는 jq 도 못 읽음
cp "$SUBMISSION/schema.csv" .

cp "$SUBMISSION/consume.py" "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" "$SUBMISSION/order-check.sql" .
chmod +x consume.py lag.sh replay.sh
./consume.py
echo "done=$(ls done | wc -l) error=$(ls error | wc -l) rows=$(sqlite3 ledger.db 'select count(*) from processed')"

# 중복: done 에 두 번 이상 나온 msg_id
jq -r .msg_id done/*.json | sort | uniq -d > dup.txt
cat dup.txt
# error 두 개는 눈으로 보고 손으로 적음
head -c 200 error/*; echo
cp "$SUBMISSION/error.csv" .

r=$(sqlite3 ledger.db < order-check.sql)
[ -z "$r" ] && echo OK > order-result.txt || echo "$r" > order-result.txt
cat order-result.txt
./lag.sh . 20
