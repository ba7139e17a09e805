set -e
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
cd /root/q
# step 2: let Python tell me the fields and types of the messages that parse
python3 - <<'PY'
import glob, json
names = {bool: "boolean", int: "integer", float: "number", str: "string"}
fields = {}
for p in sorted(glob.glob("/root/q/inbox/*.json")):
    try:
        m = json.load(open(p))
    except ValueError:
        continue
    if not all(k in m for k in ("msg_id", "order_no", "seq", "amount")):
        continue
    for k, v in m.items():
        fields.setdefault(k, names[type(v)])
roles = {"msg_id": "idempotency-key", "seq": "sequence"}
with open("/root/q/schema.csv", "w") as f:
    f.write("field,type,role\n")
    for k, t in fields.items():
        f.write(f"{k},{t},{roles.get(k, '')}\n")
PY
cat schema.csv
cp "$SUBMISSION/consume.py" "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" "$SUBMISSION/order-check.sql" .
chmod +x lag.sh replay.sh
python3 consume.py | tee consume.out
python3 - <<'PY'
out = open("/root/q/consume.out").read().splitlines()
dups = out[0].split()[1:]
open("/root/q/dup.txt", "w").write("\n".join(sorted(dups)) + "\n")
with open("/root/q/error.csv", "w") as f:
    f.write("file,reason\n")
    for line in out[1:]:
        _, name, reason = line.split()
        f.write(f"{name},{reason}\n")
PY
python3 - <<'PY'
import sqlite3
con = sqlite3.connect("/root/q/ledger.db")
rows = con.execute(open("/root/q/order-check.sql").read()).fetchall()
with open("/root/q/order-result.txt", "w") as f:
    if not rows:
        f.write("OK\n")
    for r in rows:
        f.write("\t".join(map(str, r)) + "\n")
print(con.execute("select count(*) from processed").fetchone())
PY
cat dup.txt error.csv order-result.txt
./lag.sh /root/q 20
