mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cp "$SUBMISSION/schema.csv" /root/q/
cp "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x /root/q/consume.py /root/q/lag.sh /root/q/replay.sh
cd /root/q
python3 consume.py > consume.log
cat consume.log
ls done | wc -l
ls error | wc -l
sqlite3 ledger.db "SELECT COUNT(*) FROM processed;"
grep '^DUPLICATE' consume.log | awk '{print $3}' | sort > dup.txt
echo "file,reason" > error.csv
grep '^ERROR' consume.log | awk '{print $2","$3}' >> error.csv
rm consume.log
cat dup.txt error.csv
sqlite3 ledger.db < order-check.sql > result.tmp
if [ -s result.tmp ]; then cp result.tmp order-result.txt; else echo "OK" > order-result.txt; fi
rm result.tmp
cat order-result.txt
# tried step 7 and 8
./lag.sh /root/q 5
./replay.sh nothing.json
./replay.sh ../done/msg-0001.json
ls /root/q/done | wc -l
