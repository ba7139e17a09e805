# (Windows 에서 작성한 파일을 pod 로 옮긴 뒤 실행)
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cp "$SUBMISSION"/schema.csv "$SUBMISSION"/consume.py "$SUBMISSION"/order-check.sql "$SUBMISSION"/lag.sh "$SUBMISSION"/replay.sh /root/q/
cd /root/q
# 첫 실행 때 "/bin/bash^M: bad interpreter" 가 나서 .sh 만 줄끝을 LF 로 바꿈 (py, sql, csv 는 그대로 CRLF)
sed -i 's/\r$//' lag.sh replay.sh
chmod +x lag.sh replay.sh
python3 consume.py --report
ls done | wc -l
ls error | wc -l
sqlite3 ledger.db "select count(*) from processed;"
cat dup.txt; echo; cat error.csv
sqlite3 ledger.db < order-check.sql > check.out
if [ -s check.out ]; then cp check.out order-result.txt; else printf '\xef\xbb\xbfOK\r\n' > order-result.txt; fi
rm -f check.out
./lag.sh /root/q 10; echo "lag=$?"
