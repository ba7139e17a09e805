# what I did (wrote the files on my laptop in Notepad++, copied them over)
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls -l /root/q/inbox | wc -l

cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" /root/q/
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x /root/q/lag.sh /root/q/replay.sh
cd /root/q

./lag.sh /root/q 5
# -> bash: ./lag.sh: /bin/bash^M: bad interpreter   (googled it: dos2unix)
sed -i 's/\r$//' lag.sh replay.sh
./lag.sh /root/q 5; echo $?

python consume.py 2>/dev/null || python3 consume.py
ls done | wc -l; ls error | wc -l
sqlite3 ledger.db "SELECT COUNT(*) FROM processed;"
cat error.csv dup.txt

sqlite3 ledger.db < order-check.sql > result.tmp
if [ ! -s result.tmp ]; then
    echo "OK" > order-result.txt
else
    cat result.tmp > order-result.txt
fi
rm result.tmp
cat order-result.txt

./replay.sh msg-9999.json; echo $?
