set -e
mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
test "$(ls /root/q/inbox | wc -l)" -eq 20
cp "$SUBMISSION/schema.csv" /root/q/            # typed by hand (CRLF editor)
cp "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" /root/q/
python3 /root/q/consume.py --report              # writes dup.txt and error.csv too
sqlite3 /root/q/ledger.db '.schema processed'
# order check -> order-result.txt
python3 - <<'PY'
import sqlite3
from pathlib import Path
q = Path("/root/q")
rows = sqlite3.connect(q / "ledger.db").execute((q / "order-check.sql").read_text()).fetchall()
with open(q / "order-result.txt", "w", newline="") as fh:
    fh.write("OK\r\n" if not rows else "".join(f"{r}\r\n" for r in rows))
PY
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod 755 /root/q/lag.sh /root/q/replay.sh
/root/q/lag.sh /root/q 5
bash /root/q/lag.sh /root/q 5
