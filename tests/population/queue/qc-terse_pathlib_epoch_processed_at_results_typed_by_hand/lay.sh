mkdir -p q/{inbox,processing,done,error} && cp /opt/lab/fixtures/eai/queue/inbox/*.json q/inbox && ls q/inbox | wc -l
cp $SUBMISSION/*.{py,csv,sql,sh} q/ 2>/dev/null; rm -f q/lay.sh; chmod +x q/*.sh
cd q && python3 consume.py && ls done | wc -l && ls error | wc -l
sqlite3 ledger.db 'select count(*) from processed'
# which msg_ids came twice?
cat done/* | grep -o 'm-[0-9a-f]*' | sort | uniq -d
# typed what I saw
printf 'm-5297a97a7a\nm-74051d4ed7\nm-ab8bdb3938' > dup.txt
head -c 300 error/*
cat > error.csv <<X
file,reason
msg-0017.json,missing-field
msg-0006.json,parse
X
sqlite3 ledger.db < order-check.sql
cat > order-result.txt <<X
OK
(order-check.sql: 0 rows, 2 orders checked)
X
./lag.sh . 0; echo $?
