# step 1 -- read the text twice, then:
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
test "$(ls -1 /root/q/inbox | wc -l)" -eq 20 && echo "inbox: 20 files"

# step 2 -- which fields does every parseable, complete message carry?
python3 - <<'PY'
import json, glob
keys = None
for p in sorted(glob.glob('/root/q/inbox/*.json')):
    try:
        m = json.load(open(p))
    except ValueError:
        print('unparseable', p); continue
    if not all(m.get(k) is not None for k in ('msg_id', 'order_no', 'seq', 'amount')):
        print('incomplete', p, sorted(m)); continue
    keys = set(m) if keys is None else keys | set(m)
    print(p.rsplit('/', 1)[1], {k: type(v).__name__ for k, v in m.items()})
print(sorted(keys))
PY
cat > /root/q/schema.csv <<'CSV'
field,type,role
msg_id,string,idempotency-key
order_no,string,
seq,integer,sequence
amount,number,
currency,string,
created_at,datetime,
CSV

# step 3
cp "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" \
   "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod 0755 /root/q/consume.py /root/q/lag.sh /root/q/replay.sh
cd /root/q
./lag.sh /root/q 19; echo "lag exit=$? (20 > 19)"
./lag.sh /root/q 20; echo "lag exit=$? (20 = 20)"
python3 consume.py

# step 4 -- verify, and dup.txt from the dup log the consumer keeps
for d in inbox processing done error; do echo "$d: $(ls -1 $d | wc -l)"; done
sqlite3 ledger.db 'SELECT COUNT(*), COUNT(DISTINCT msg_id) FROM processed;'
sqlite3 ledger.db 'SELECT DISTINCT msg_id FROM dup_log ORDER BY msg_id;' > dup.txt
cat dup.txt

# step 5 -- error.csv from the error log, one row per file now in error/
sqlite3 -header -csv ledger.db \
  'SELECT file, reason FROM error_log GROUP BY file HAVING failed_at = MAX(failed_at) ORDER BY file;' > error.csv
cat error.csv
ls error

# step 6
sqlite3 ledger.db < order-check.sql > /tmp/order-check.out
if [ -s /tmp/order-check.out ]; then
    { echo "NG"; cat /tmp/order-check.out; } > order-result.txt
else
    echo "OK" > order-result.txt
fi
cat order-result.txt

# step 7/8 checks
./lag.sh /root/q 0; echo "lag exit=$?"
./replay.sh msg-0000.json; echo "replay missing exit=$?"
./replay.sh ../done/msg-0001.json; echo "replay traversal exit=$?"
ls processing | wc -l
