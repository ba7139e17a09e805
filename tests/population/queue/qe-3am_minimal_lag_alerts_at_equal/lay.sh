mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
cd /root/q
cp "$SUBMISSION"/{consume.py,schema.csv,order-check.sql,lag.sh,replay.sh} .
chmod +x *.sh
python3 consume.py
ls done | wc -l; ls error | wc -l; sqlite3 ledger.db 'select count(*) from processed'
for f in done/*.json; do jq -r .msg_id "$f"; done | sort | uniq -d > dup.txt
printf 'file,reason\nmsg-0006.json,parse\nmsg-0017.json,missing-field\n' > error.csv
sqlite3 ledger.db < order-check.sql
echo OK > order-result.txt
./lag.sh /root/q 100
