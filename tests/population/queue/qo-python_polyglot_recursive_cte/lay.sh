# my terminal session, cleaned up
set -e
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
python3 -c '
import shutil, pathlib
src = pathlib.Path("/opt/lab/fixtures/eai/queue/inbox")
for p in sorted(src.glob("*.json")):
    shutil.copy2(p, "/root/q/inbox/")
print(len(list(pathlib.Path("/root/q/inbox").iterdir())), "files in inbox")
'
# 2. field survey, then schema.csv written by hand
python3 -c '
import json, pathlib, collections
seen = collections.Counter()
for p in pathlib.Path("/root/q/inbox").glob("*.json"):
    try:
        seen.update(json.loads(p.read_text()).keys())
    except ValueError:
        pass
print(seen)
'
cp "$SUBMISSION/schema.csv" /root/q/schema.csv
# 3.-5. consumer (also writes dup.txt and error.csv)
cp "$SUBMISSION/consume.py" /root/q/consume.py
cd /root/q
python3 consume.py
cat dup.txt error.csv
# 6.
cp "$SUBMISSION/order-check.sql" /root/q/
python3 -c '
import sqlite3
con = sqlite3.connect("/root/q/ledger.db")
rows = con.execute(open("/root/q/order-check.sql").read()).fetchall()
with open("/root/q/order-result.txt", "w") as f:
    if rows:
        f.write("NG\n" + "".join(",".join(map(str, r)) + "\n" for r in rows))
    else:
        f.write("OK\n(0 rows)\n")
'
cat order-result.txt
# 7. 8.
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod 755 /root/q/lag.sh /root/q/replay.sh
./lag.sh /root/q 0
./replay.sh nothing-here.json || echo "replay refused: $?"
