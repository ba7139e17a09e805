mkdir -p /root/q && cd /root/q && mkdir -p inbox processing done error
cp -v /opt/lab/fixtures/eai/queue/inbox/*.json inbox/ | wc -l
cp "$SUBMISSION"/consume.py "$SUBMISSION"/order-check.sql "$SUBMISSION"/lag.sh "$SUBMISSION"/replay.sh "$SUBMISSION"/schema.csv .
chmod +x *.sh
python3 consume.py --workers 4 --verbose
find processing -type f | wc -l
# which msg_ids reached done/ more than once
python3 -c '
import collections, glob, json
c = collections.Counter(json.load(open(p))["msg_id"] for p in glob.glob("done/*.json"))
print("\n".join(sorted(k for k, v in c.items() if v > 1)))' > dup.txt
# reasons of error/ files, re-checked the same way consume.py does
python3 - > error.csv <<'PY'
import json, os
print("file,reason")
for n in sorted(os.listdir("error")):
    try:
        m = json.load(open("error/" + n, "rb"))
        r = "missing-field" if isinstance(m, dict) else "parse"
    except ValueError:
        r = "parse"
    print(f"{n},{r}")
PY
cat dup.txt error.csv
sqlite3 -box ledger.db < order-check.sql
test -z "$(sqlite3 ledger.db < order-check.sql)" && printf 'OK\n\n-- order-check.sql: 0 rows\n' > order-result.txt
./lag.sh . 20; echo $?
