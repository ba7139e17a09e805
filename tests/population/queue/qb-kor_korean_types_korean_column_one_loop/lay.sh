mkdir -p /root/q
cd /root/q
mkdir -p inbox processing done error
cp /opt/lab/fixtures/eai/queue/inbox/*.json inbox/
ls inbox | wc -l
cat inbox/msg-0002.json
cp $SUBMISSION/schema.csv $SUBMISSION/consume.py $SUBMISSION/order-check.sql $SUBMISSION/lag.sh $SUBMISSION/replay.sh /root/q/
chmod +x consume.py lag.sh replay.sh
./consume.py
echo "done=$(ls done | wc -l) error=$(ls error | wc -l)"
sqlite3 ledger.db 'select count(*) from processed'
# 중복 msg_id: done 폴더의 msg_id 중 두 번 이상 나온 것
grep -oh '"msg_id": *"[^"]*"' done/*.json | cut -d'"' -f4 | sort | uniq -d > dup.txt
cat dup.txt
# error.csv: 눈으로 확인하고 작성
cat error/*.json
cat > error.csv <<'CSV'
file,reason
msg-0006.json,parse
msg-0017.json,missing-field
CSV
sqlite3 ledger.db < order-check.sql
printf 'OK' > order-result.txt
./lag.sh /root/q 0; echo $?
