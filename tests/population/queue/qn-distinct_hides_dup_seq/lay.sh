set -e
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
echo "inbox: $(ls /root/q/inbox | wc -l)"
cd /root/q
cp "$SUBMISSION"/{schema.csv,consume.py,order-check.sql,lag.sh,replay.sh} .
chmod +x lag.sh replay.sh
python3 consume.py | tee consume.out
grep -o 'duplicate [^)]*' consume.out | cut -d' ' -f2 | sort > dup.txt
( echo file,reason; sed -n 's/^\(.*\) -> error (\(.*\))$/\1,\2/p' consume.out ) > error.csv
cat dup.txt error.csv
sqlite3 ledger.db 'select count(*) from processed'
sqlite3 ledger.db < order-check.sql > order-result.txt
[ -s order-result.txt ] || echo OK > order-result.txt
cat order-result.txt
./lag.sh /root/q 3
