mkdir /root/q
mkdir /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox
cp $SUBMISSION/schema.csv $SUBMISSION/consume.py $SUBMISSION/order-check.sql $SUBMISSION/lag.sh $SUBMISSION/replay.sh /root/q/
cd /root/q
python3 consume.py
ls done | wc -l
ls error | wc -l
sqlite3 ledger.db "select count(*) from processed"
# typed the duplicates from the DUPLICATE lines above
printf 'm-5297a97a7a\nm-74051d4ed7\nm-ab8bdb3938' > dup.txt
cat > error.csv <<'CSV'
file,reason
msg-0006.json,parse
msg-0017.json,missing-field
CSV
sqlite3 ledger.db < order-check.sql
# nothing came out, so it's clean
echo "OK" > order-result.txt
bash lag.sh /root/q 10
