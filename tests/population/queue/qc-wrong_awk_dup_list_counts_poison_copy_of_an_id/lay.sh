mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
for f in consume.py schema.csv order-check.sql lag.sh replay.sh; do cp "$SUBMISSION/$f" /root/q/; done
cd /root/q
python3 consume.py
ls done | wc -l; ls error | wc -l
sqlite3 ledger.db 'select count(*) from processed'
# every msg_id that shows up in more than one file
cat done/* error/* | grep -o '"msg_id": *"[^"]*"' | awk -F'"' '{print $4}' | sort | uniq -d > dup.txt
# error reasons: a file python can parse must be a missing-field one
for f in error/*; do
    if python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$f" 2>/dev/null; then r=missing-field; else r=parse; fi
    echo "${f##*/},$r"
done | awk 'BEGIN { print "file,reason" } { print }' > error.csv
sqlite3 ledger.db < order-check.sql | awk 'END { if (NR == 0) print "OK" } { print }' > order-result.txt
sh lag.sh /root/q 0
