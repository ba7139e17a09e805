mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x /root/q/lag.sh /root/q/replay.sh
cd /root/q
python3 consume.py | tee consume.log
ls done | wc -l
ls error | wc -l
sqlite3 ledger.db "SELECT COUNT(*) FROM processed"
grep '^duplicate ' consume.log | awk '{print $3}' | sort > dup.txt
echo "file,reason" > error.csv
grep '^error ' consume.log | awk '{print $2 "," $3}' | sort >> error.csv
cat dup.txt error.csv
sqlite3 -header ledger.db < order-check.sql > order-check.out
if [ -s order-check.out ]; then cp order-check.out order-result.txt; else echo OK > order-result.txt; fi
rm -f order-check.out consume.log
cat order-result.txt
./lag.sh /root/q 3; echo $?
