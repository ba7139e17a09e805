mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
cd /root/q
for f in schema.csv consume.py order-check.sql lag.sh replay.sh; do cp "$SUBMISSION/$f" .; done
chmod u+x consume.py lag.sh replay.sh
# ran two consumers at once to see the claim work
python3 consume.py 2>c1.err & python3 consume.py 2>c2.err & wait
cat c1.err c2.err
find processing
echo "done=$(ls done | wc -l) error=$(ls error | wc -l)"
sqlite3 ledger.db 'select count(*) from processed'
sed -n 's/^duplicate .*: msg_id \(.*\) ignored$/\1/p' c1.err c2.err | sort > dup.txt
echo file,reason > error.csv
sed -n 's/^error \(.*\): \(parse\|missing-field\)$/\1,\2/p' c1.err c2.err | sort >> error.csv
rm c1.err c2.err
cat dup.txt error.csv
sqlite3 ledger.db < order-check.sql | tee /tmp/oc.txt
[ -s /tmp/oc.txt ] || echo OK > order-result.txt
./lag.sh /root/q 0; echo "lag exit $?"
