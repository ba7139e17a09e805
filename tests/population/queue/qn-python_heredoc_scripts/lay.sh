cd /root
mkdir -p q/inbox q/processing q/done q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json q/inbox/
ls q/inbox | wc -l
python3 -c "import json,glob; print(json.load(open('q/inbox/msg-0001.json')))"
cp "$SUBMISSION/consume.py" "$SUBMISSION/schema.csv" "$SUBMISSION/order-check.sql" q/
install -m 755 "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" q/
python3 q/consume.py
python3 - <<'PY'
import collections, glob, json, sqlite3
ids = collections.Counter(json.load(open(p))["msg_id"] for p in glob.glob("/root/q/done/*.json"))
dups = sorted(m for m, n in ids.items() if n > 1)
open("/root/q/dup.txt", "w").write("\n".join(dups) + "\n")
print("dups", dups)
print("rows", sqlite3.connect("/root/q/ledger.db").execute("select count(*) from processed").fetchone())
PY
cat > q/error.csv <<'CSV'
file,reason
msg-0006.json,parse
msg-0017.json,missing-field
CSV
python3 - <<'PY'
import sqlite3
con = sqlite3.connect("/root/q/ledger.db")
rows = con.execute(open("/root/q/order-check.sql").read()).fetchall()
with open("/root/q/order-result.txt", "w") as f:
    if not rows:
        f.write("OK\n")
    for r in rows:
        f.write("|".join(map(str, r)) + "\n")
PY
cat q/order-result.txt
q/lag.sh /root/q 3; echo "lag: $?"
q/replay.sh msg-0006.json; echo "replay: $?"
q/lag.sh /root/q 3
python3 q/consume.py
ls q/error
