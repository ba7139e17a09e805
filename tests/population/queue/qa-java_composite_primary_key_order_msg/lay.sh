set -euo pipefail
mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cp "$SUBMISSION"/{schema.csv,consume.py,order-check.sql,lag.sh,replay.sh} /root/q/
chmod +x /root/q/consume.py /root/q/lag.sh /root/q/replay.sh
cd /root/q
python3 consume.py
sqlite3 ledger.db 'SELECT COUNT(*) FROM processed'
# read the duplicates/errors off the final log line and wrote them down
printf '%s\n' m-5297a97a7a m-74051d4ed7 m-ab8bdb3938 > dup.txt
printf '%s\n' file,reason msg-0006.json,parse msg-0017.json,missing-field > error.csv
if [[ -z "$(sqlite3 ledger.db < order-check.sql)" ]]; then echo OK > order-result.txt; fi
./lag.sh /root/q 0 || true
