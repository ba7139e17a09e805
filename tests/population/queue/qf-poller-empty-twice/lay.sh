mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
cp "$SUBMISSION"/schema.csv "$SUBMISSION"/consume.py "$SUBMISSION"/lag.sh "$SUBMISSION"/replay.sh "$SUBMISSION"/order-check.sql /root/q/
chmod +x /root/q/*.sh /root/q/consume.py
cd /root/q
python3 consume.py | tee consume.log
echo "consume exit: ${PIPESTATUS[0]}  (1 = there were poison messages)"
ls done | wc -l
ls error | wc -l
sqlite3 ledger.db "SELECT COUNT(*) FROM processed"
sed -n 's/^\[dup\] [^:]*: //p' consume.log | sort > dup.txt
echo "file,reason" > error.csv
sed -n 's/^\[error\] \([^:]*\): \(.*\)$/\1,\2/p' consume.log | sort >> error.csv
sqlite3 ledger.db < order-check.sql > order-result.txt
[ -s order-result.txt ] || echo OK > order-result.txt
cat dup.txt error.csv order-result.txt
./lag.sh /root/q 0
