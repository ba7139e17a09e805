set -e
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cp "$SUBMISSION/schema.csv" /root/q/
cp "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" /root/q/
python3 /root/q/consume.py | tee /root/q/run.log
sqlite3 /root/q/ledger.db '.schema processed'
sqlite3 /root/q/ledger.db 'select count(*) from processed'
# dup.txt / error.csv / order-result.txt: written from the run log and the DB, BOM (Windows notepad habit)
python3 - <<'PY'
import sqlite3
from pathlib import Path
q = Path("/root/q")
log = (q / "run.log").read_text(encoding="utf-8").splitlines()
dups = sorted(l.split()[1] for l in log if l.startswith("  dup "))
errs = sorted(tuple(l.split()[1:3]) for l in log if l.startswith("  error "))
(q / "dup.txt").write_text("\n".join(dups) + "\n", encoding="utf-8-sig")
(q / "error.csv").write_text("file,reason\n" + "".join(f"{f},{r}\n" for f, r in errs), encoding="utf-8-sig")
sql = (q / "order-check.sql").read_text(encoding="utf-8-sig")
rows = sqlite3.connect(q / "ledger.db").execute(sql).fetchall()
(q / "order-result.txt").write_text("OK\n" if not rows else "\n".join(map(str, rows)) + "\n", encoding="utf-8-sig")
PY
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x /root/q/lag.sh /root/q/replay.sh
/root/q/lag.sh /root/q 0
/root/q/lag.sh --threshold=0 /root/q
