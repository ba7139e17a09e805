mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cp "$SUBMISSION"/consume.py "$SUBMISSION"/schema.csv "$SUBMISSION"/order-check.sql "$SUBMISSION"/lag.sh "$SUBMISSION"/replay.sh /root/q/
chmod +x /root/q/lag.sh /root/q/replay.sh
cd /root/q
python3 consume.py
# dup.txt: done/ 에 두 번 이상 나온 msg_id (중복도 done 으로 가니까)
python3 - <<'PY' > /root/q/dup.txt
import collections, glob, json
c = collections.Counter(json.load(open(f))["msg_id"] for f in glob.glob("/root/q/done/*.json"))
print("\n".join(sorted(k for k, v in c.items() if v > 1)))
PY
sqlite3 ledger.db "select count(*) from processed"
sqlite3 ledger.db < order-check.sql > /tmp/oc.out
if [ -s /tmp/oc.out ]; then cp /tmp/oc.out order-result.txt; else printf 'OK\r\n' > order-result.txt; fi
./lag.sh /root/q 20; echo "lag exit $?"
