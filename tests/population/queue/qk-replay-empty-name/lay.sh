set -e
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" /root/q/
python3 /root/q/consume.py --write-reports
sqlite3 /root/q/ledger.db '.schema processed'
cat /root/q/dup.txt /root/q/error.csv
cd /root/q
python3 -c '
import sqlite3, pathlib
q = pathlib.Path("/root/q")
rows = sqlite3.connect(q / "ledger.db").execute((q / "order-check.sql").read_text()).fetchall()
(q / "order-result.txt").write_text("OK\n" if not rows else "\n".join(map(repr, rows)) + "\n")
'
cat order-result.txt
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x lag.sh replay.sh
./lag.sh /root/q 0
# tried replay: a name that is not there, a path, then a real one and back
./replay.sh nope.json || echo "exit $?"
./replay.sh ../done/msg-0001.json || echo "exit $?"
./replay.sh msg-0017.json && mv inbox/msg-0017.json error/
ls error
