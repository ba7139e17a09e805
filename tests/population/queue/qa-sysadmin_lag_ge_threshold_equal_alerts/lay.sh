mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/ && ls /root/q/inbox | wc -l
cp "$SUBMISSION"/{schema.csv,consume.py,order-check.sql,lag.sh,replay.sh} /root/q/
chmod 755 /root/q/*.sh /root/q/consume.py
cd /root/q
./consume.py | tee consume.out
awk -F'\t' '$2=="dup"{print $3}' consume.out | sort -u > dup.txt
{ echo file,reason; awk -F'\t' '$2=="parse"||$2=="missing-field"{print $1","$2}' consume.out; } > error.csv
sqlite3 ledger.db < order-check.sql > order-result.txt
test -s order-result.txt || echo OK > order-result.txt
./lag.sh /root/q 100; echo "lag rc=$?"
