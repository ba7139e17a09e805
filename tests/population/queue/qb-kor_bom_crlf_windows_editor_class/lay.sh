# 1. 큐 디렉터리 구성
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
# 2. 메시지 구조 파악 -> schema.csv (메모장에서 저장: BOM + CRLF)
cat /root/q/inbox/msg-0001.json
cp "$SUBMISSION/schema.csv" /root/q/schema.csv
# 3. consume.py (메모장 저장 그대로, python3 는 BOM/CRLF 상관 없음)
cp "$SUBMISSION/consume.py" /root/q/consume.py
cd /root/q && python3 consume.py
# 4. 확인
ls done | wc -l; ls error | wc -l
sqlite3 ledger.db "select count(*) from processed"
grep 중복무시 consume.log
# dup.txt: 로그 보고 직접 입력 (메모장 -> BOM, CRLF)
printf '\xef\xbb\xbfm-5297a97a7a\r\nm-74051d4ed7\r\nm-ab8bdb3938\r\n' > /root/q/dup.txt
# 5. error.csv: error 폴더 보고 직접 입력
ls error; grep 오류 consume.log
printf '\xef\xbb\xbffile,reason\r\nmsg-0006.json,parse\r\nmsg-0017.json,missing-field\r\n' > /root/q/error.csv
# 6. order-check.sql
cp "$SUBMISSION/order-check.sql" /root/q/
sqlite3 ledger.db < order-check.sql
printf '\xef\xbb\xbfOK\r\n조회 결과 0행 - 중복/누락 seq 없음\r\n' > /root/q/order-result.txt
# 7, 8. 셸 스크립트는 CRLF 때문에 "$'\r': command not found" -> sed 로 줄끝 고침
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
bash /root/q/lag.sh /root/q 5 || echo "lag.sh 실패 (CRLF)"
sed -i 's/\r$//' /root/q/lag.sh /root/q/replay.sh
chmod +x /root/q/lag.sh /root/q/replay.sh
/root/q/lag.sh /root/q 5; echo "종료코드 $?"
/root/q/replay.sh 없는파일.json; echo "종료코드 $?"
