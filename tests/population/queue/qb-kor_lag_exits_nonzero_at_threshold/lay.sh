mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cp "$SUBMISSION"/schema.csv "$SUBMISSION"/consume.py "$SUBMISSION"/order-check.sql /root/q/
# .sh 는 리눅스에서 다시 저장 (LF)
cp "$SUBMISSION"/lag.sh "$SUBMISSION"/replay.sh /root/q/
chmod +x /root/q/lag.sh /root/q/replay.sh
cd /root/q
python3 consume.py
sqlite3 ledger.db "select count(*) from processed"
# 출력 보고 직접 입력 (CRLF)
printf 'm-5297a97a7a\r\nm-74051d4ed7\r\nm-ab8bdb3938\r\n' > dup.txt
printf 'file,reason\r\nmsg-0006.json,parse\r\nmsg-0017.json,missing-field\r\n' > error.csv
sqlite3 ledger.db < order-check.sql
printf 'OK\r\n' > order-result.txt
./lag.sh /root/q 10; echo "exit=$?"
