set -e
# 1단계
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l          # 20

# 2단계
cat /root/q/inbox/msg-0001.json
cp "$SUBMISSION/schema.csv" /root/q/

# 3단계
cp "$SUBMISSION/consume.py" /root/q/
cd /root/q
python3 consume.py | tee /root/consume-run.log
sqlite3 /root/q/ledger.db '.schema processed'

# 4단계
ls done | wc -l; ls error | wc -l
sqlite3 ledger.db 'SELECT COUNT(*) FROM processed'
grep '^중복 ' /root/consume-run.log | awk '{print $2}' | sort > dup.txt
cat dup.txt

# 5단계
{ echo "file,reason"; grep '^오류 ' /root/consume-run.log | awk '{print $2 "," $3}'; } > error.csv
cat error.csv

# 6단계
cp "$SUBMISSION/order-check.sql" /root/q/
result=$(sqlite3 ledger.db < order-check.sql)
if [ -z "$result" ]; then
    printf 'OK\n' > order-result.txt
else
    printf '%s\n' "$result" > order-result.txt
fi
cat order-result.txt

# 7, 8단계
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x lag.sh replay.sh
./lag.sh /root/q 0 || echo "종료코드 $?"
