set -e
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
cd /root/q
for f in inbox/*; do jq -c 'keys' "$f" 2>/dev/null || echo "$f broken"; done | sort | uniq -c
cp "$SUBMISSION"/consume.py "$SUBMISSION"/schema.csv "$SUBMISSION"/order-check.sql "$SUBMISSION"/lag.sh "$SUBMISSION"/replay.sh .
chmod +x lag.sh replay.sh
python3 consume.py
ls done | wc -l; ls error | wc -l
sqlite3 ledger.db 'select count(*) from processed'
jq -r .msg_id done/*.json | sort | uniq -d > dup.txt
(echo file,reason; for f in error/*; do jq -e . "$f" >/dev/null 2>&1 && r=missing-field || r=parse; echo "${f#error/},$r"; done) > error.csv
r=$(sqlite3 ledger.db < order-check.sql); [ -z "$r" ] && echo OK > order-result.txt || echo "$r" > order-result.txt
cat dup.txt error.csv order-result.txt
./lag.sh /root/q 0 || echo "lag rc=$?"
