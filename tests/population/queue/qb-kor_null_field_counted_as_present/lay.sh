mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x /root/q/*.sh
cd /root/q
python3 consume.py
cat 처리로그.txt
# dup.txt: 로그의 '중복' 줄에서 msg_id 만
grep ' 중복 ' 처리로그.txt | awk '{print $5}' | sort > dup.txt
# error.csv (엑셀에서 열어보려고 BOM 붙임)
{ printf '\xef\xbb\xbf'; echo "file,reason"; grep ' 오류 ' 처리로그.txt | awk '{print $4","$5}' | sort; } > error.csv
cat dup.txt error.csv
sqlite3 ledger.db < order-check.sql
printf 'OK\n' > order-result.txt
./lag.sh /root/q 0; echo "종료코드=$?"
