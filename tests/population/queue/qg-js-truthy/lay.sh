set -e
mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
cp "$SUBMISSION"/{consume.py,schema.csv,order-check.sql,lag.sh,replay.sh} /root/q/
chmod +x /root/q/*.sh
cd /root/q
python3 consume.py
cat dup.txt error.csv
sqlite3 ledger.db "select count(*) from processed"
if [ -z "$(sqlite3 ledger.db < order-check.sql)" ]; then echo OK > order-result.txt; else sqlite3 ledger.db < order-check.sql > order-result.txt; fi
cat order-result.txt
./lag.sh /root/q 5
