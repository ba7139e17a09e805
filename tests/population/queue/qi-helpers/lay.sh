mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l

# the helper module first, then the scripts that use it
cp "$SUBMISSION/qlib.py" "$SUBMISSION/qtool.py" "$SUBMISSION/consume.py" /root/q/
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" "$SUBMISSION/order-check.sql" /root/q/
chmod +x /root/q/*.sh /root/q/*.py
cd /root/q

# step 2: schema from the good messages, using the same rules as the consumer
python3 - <<'PY'
import glob, sys
sys.path.insert(0, '/root/q')
import qlib
fields = {}
for p in sorted(glob.glob('/root/q/inbox/*.json')):
    msg, reason = qlib.classify(open(p, 'rb').read())
    if reason:
        continue
    for k, v in msg.items():
        fields.setdefault(k, type(v).__name__)
names = {'str': 'string', 'int': 'integer', 'float': 'number'}
roles = {'msg_id': 'idempotency-key', 'seq': 'sequence'}
with open('/root/q/schema.csv', 'w') as fh:
    fh.write('field,type,role\n')
    for k, t in fields.items():
        fh.write(f'{k},{names.get(t, t)},{roles.get(k, "")}\n')
print(open('/root/q/schema.csv').read())
PY
sed -i 's/^amount,integer,/amount,number,/' schema.csv     # money: number, not int

python3 consume.py
python3 qtool.py report
cat error.csv; cat dup.txt; echo
sqlite3 ledger.db 'select count(*) from processed'

if [ -z "$(sqlite3 ledger.db < order-check.sql)" ]; then echo OK > order-result.txt; else sqlite3 -header ledger.db < order-check.sql > order-result.txt; fi
cat order-result.txt

./lag.sh /root/q 18; echo "lag=$?"
./replay.sh nope.json; echo "replay=$?"
