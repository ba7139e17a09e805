set -e
python3 - <<'PY'
from pathlib import Path
import shutil
q = Path("/root/q")
for d in ("inbox", "processing", "done", "error"):
    (q / d).mkdir(parents=True, exist_ok=True)
for f in sorted(Path("/opt/lab/fixtures/eai/queue/inbox").glob("*.json")):
    shutil.copy2(f, q / "inbox" / f.name)
print(len(list((q / "inbox").iterdir())), "files in inbox")
PY
cd /root/q
cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" .
python3 consume.py | tee /root/consume.out

# dup.txt / error.csv from the consumer's tab-separated output
python3 - <<'PY'
from pathlib import Path
lines = [l.split("\t") for l in Path("/root/consume.out").read_text().splitlines()]
dups = sorted({l[2] for l in lines if l[0] == "dup"})
Path("/root/q/dup.txt").write_text("".join(d + "\n" for d in dups))
errs = sorted((l[1], l[2]) for l in lines if l[0] == "error")
Path("/root/q/error.csv").write_text("file,reason\n" + "".join(f"{f},{r}\n" for f, r in errs))
PY
cat dup.txt error.csv
sqlite3 ledger.db 'SELECT COUNT(*) FROM processed'

cp "$SUBMISSION/order-check.sql" .
rows=$(sqlite3 ledger.db < order-check.sql)
if [ -z "$rows" ]; then echo OK > order-result.txt; else echo "$rows" > order-result.txt; fi
cat order-result.txt

cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" .
chmod +x lag.sh replay.sh
./lag.sh /root/q 20
