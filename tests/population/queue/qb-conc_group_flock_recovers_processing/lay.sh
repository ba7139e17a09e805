set -x
mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cp "$SUBMISSION"/{schema.csv,consume.py,order-check.sql,lag.sh,replay.sh} /root/q/
chmod +x /root/q/consume.py /root/q/lag.sh /root/q/replay.sh
cd /root/q
# tried the crash recovery first: pretend a consumer died holding msg-0005.json
mv inbox/msg-0005.json processing/
./lag.sh /root/q 100
python3 consume.py
ls processing | wc -l
echo "done=$(ls done | wc -l) error=$(ls error | wc -l)"
sqlite3 ledger.db 'select count(*), count(distinct msg_id) from processed'
# dup.txt / error.csv from the log
grep ' DUPLICATE ' consume.log | awk '{print $NF}' | sort -u > dup.txt
{ echo file,reason; grep ' REJECT ' consume.log | awk '{print $(NF-1) "," $NF}' | sort; } > error.csv
cat dup.txt error.csv
rows=$(sqlite3 ledger.db < order-check.sql)
if [ -z "$rows" ]; then echo OK > order-result.txt; else { echo NG; echo "$rows"; } > order-result.txt; fi
cat order-result.txt
./lag.sh /root/q 0; echo "exit=$?"
