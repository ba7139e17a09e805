# what I typed, in order (I live in sh; python only for consume.py)
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l                       # 20

cd /root/q
# step 2: looked at a good message, wrote the schema with printf
head -c 200 inbox/msg-0001.json; echo
printf '%s\n' 'field,type,role' \
    'msg_id,string,idempotency-key' \
    'order_no,string,' \
    'seq,integer,sequence' \
    'amount,integer,' \
    'currency,string,' \
    'created_at,string,' > schema.csv

cp "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" /root/q/
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x lag.sh replay.sh

./lag.sh /root/q 5; echo "exit=$?"            # 20 > 5 -> 1

# step 3-5: run the consumer, build the reports from its output with awk
python3 consume.py > run.log
awk -F'\t' 'BEGIN { print "file,reason" } $1 == "error" { print $2 "," $3 }' run.log > error.csv
awk -F'\t' '$1 == "dup" { print $3 }' run.log | sort -u > dup.txt

ls done | wc -l; ls error | wc -l; ls processing | wc -l
sqlite3 ledger.db 'select count(*) from processed'
cat error.csv dup.txt

# step 6
sqlite3 ledger.db < order-check.sql > order-check.out
if [ -s order-check.out ]; then cp order-check.out order-result.txt; else echo OK > order-result.txt; fi
rm -f order-check.out
cat order-result.txt

# step 7/8 tried
./lag.sh /root/q 0; echo "exit=$?"
./replay.sh nothing.json; echo "exit=$?"
