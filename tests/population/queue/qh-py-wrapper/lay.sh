# my terminal session, cleaned up
set -euo pipefail
mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
python3 -c 'import os; print(len(os.listdir("/root/q/inbox")))'

# step 2: looked at the keys of every message, then wrote schema.csv (JSON Schema type names)
python3 -c '
import json, glob, collections
c = collections.Counter()
for p in glob.glob("/root/q/inbox/*.json"):
    try: c[tuple(json.load(open(p)))] += 1
    except ValueError: c["<unparseable>"] += 1
for k, v in c.items(): print(v, k)'
cp "$SUBMISSION/schema.csv" /root/q/

# step 3: consumer + its shared module
cp "$SUBMISSION/queue_common.py" "$SUBMISSION/consume.py" "$SUBMISSION/report.py" /root/q/
cd /root/q
python3 consume.py -v

# step 4/5
python3 report.py
cat dup.txt; echo; cat error.csv

# step 6
cp "$SUBMISSION/order-check.sql" /root/q/
python3 -c '
import sqlite3
rows = sqlite3.connect("ledger.db").execute(open("order-check.sql").read()).fetchall()
print("OK" if not rows else "NG")
for r in rows: print(*r, sep="\t")' > order-result.txt
cat order-result.txt

# step 7/8
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x lag.sh replay.sh consume.py report.py
./lag.sh /root/q 0 || echo "lag exit $?"
