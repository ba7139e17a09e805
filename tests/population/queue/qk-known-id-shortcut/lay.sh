set -e
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" /root/q/
cd /root/q
python3 consume.py
sqlite3 ledger.db '.schema processed'
sqlite3 ledger.db 'select count(*) from processed'
sqlite3 ledger.db 'select distinct msg_id from duplicates order by msg_id' > dup.txt
{ echo file,reason; sqlite3 -csv ledger.db 'select file, reason from rejected order by file'; } > error.csv
cat dup.txt error.csv
python3 - <<'PY'
import sqlite3
rows = sqlite3.connect("/root/q/ledger.db").execute(open("/root/q/order-check.sql").read()).fetchall()
with open("/root/q/order-result.txt", "w") as fh:
    fh.write("OK\n" if not rows else "".join("%s\n" % (r,) for r in rows))
PY
cat order-result.txt
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x lag.sh replay.sh
./lag.sh /root/q 0
