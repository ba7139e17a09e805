mkdir -p /root/q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls -1 /root/q/inbox | wc -l

cd /root/q
python3 - <<'PY'
import collections, json, pathlib
c = collections.Counter()
for p in sorted(pathlib.Path("/root/q/inbox").glob("*.json")):
    try:
        c[tuple(json.loads(p.read_text()))] += 1
    except ValueError as e:
        print(p.name, "->", e)
for k, v in c.items():
    print(v, k)
PY
cp "$SUBMISSION/schema.csv" /root/q/schema.csv

cp "$SUBMISSION/consume.py" /root/q/consume.py
chmod +x consume.py
python3 consume.py --help
python3 consume.py -v --write-reports
echo "done=$(ls done | wc -l) error=$(ls error | wc -l) processing=$(ls processing | wc -l)"
sqlite3 ledger.db '.schema processed'
sqlite3 ledger.db 'SELECT count(*) FROM processed; SELECT * FROM duplicate_seen;'
cat dup.txt error.csv
# second run over an empty inbox must not change anything
python3 consume.py -v --write-reports
sqlite3 ledger.db 'SELECT count(*) FROM processed'

cp "$SUBMISSION/order-check.sql" /root/q/order-check.sql
rows=$(sqlite3 -header ledger.db < order-check.sql)
if [[ -z $rows ]]; then
    printf 'OK\n-- order-check.sql returned 0 rows (%s)\n' "$(date -u +%FT%TZ)" > order-result.txt
else
    printf '%s\n' "$rows" > order-result.txt
fi
cat order-result.txt

cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x lag.sh replay.sh
./lag.sh /root/q 0 && echo "under threshold" || echo "over threshold (rc=$?)"
./replay.sh msg-0006.json
./lag.sh /root/q 0 && echo "under threshold" || echo "over threshold (rc=$?)"
./lag.sh /root/q 1 && echo "under threshold" || echo "over threshold (rc=$?)"
python3 consume.py -v --write-reports
cat error.csv
./replay.sh does-not-exist.json || echo "refused (rc=$?)"
