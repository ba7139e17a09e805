mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox
cp "$SUBMISSION"/consume.py "$SUBMISSION"/schema.csv "$SUBMISSION"/order-check.sql "$SUBMISSION"/lag.sh "$SUBMISSION"/replay.sh /root/q/
chmod +x /root/q/lag.sh /root/q/replay.sh
cd /root/q
python3 consume.py > consume.out
cat consume.out
grep '^DUP' consume.out | cut -d' ' -f2 | sort > dup.txt
echo "file,reason" > error.csv
grep '^ERROR' consume.out | awk '{print $3","$2}' >> error.csv
sqlite3 ledger.db < order-check.sql
echo OK > order-result.txt
./lag.sh /root/q 10
