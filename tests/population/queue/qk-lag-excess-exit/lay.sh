set -e
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" /root/q/
python3 /root/q/consume.py --summary /root/q/consume-summary.json
sqlite3 /root/q/ledger.db '.schema processed'
python3 - <<'PY'
import json, sqlite3
from pathlib import Path
q = Path("/root/q")
s = json.loads((q / "consume-summary.json").read_text())
(q / "dup.txt").write_text("".join(f"{m}\n" for m in sorted(set(s["duplicates"]))))
(q / "error.csv").write_text("file,reason\n" + "".join(f"{f},{r}\n" for f, r in sorted(s["error"].items())))
rows = sqlite3.connect(q / "ledger.db").execute((q / "order-check.sql").read_text()).fetchall()
(q / "order-result.txt").write_text("OK\n" if not rows else "".join(f"{r}\n" for r in rows))
PY
cat /root/q/dup.txt /root/q/error.csv /root/q/order-result.txt
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x /root/q/lag.sh /root/q/replay.sh
/root/q/lag.sh /root/q 0 && echo "lag ok"
# tried it on a copy with 5 files in inbox and threshold 2: prints the line, exit 3
mkdir -p /root/lagtest/inbox && touch /root/lagtest/inbox/{a,b,c,d,e}.json
/root/q/lag.sh /root/lagtest 2 || echo "lag exit $?"
/root/q/lag.sh /root/lagtest 5 && echo "lag exit 0 at threshold 5"
rm -rf /root/lagtest
