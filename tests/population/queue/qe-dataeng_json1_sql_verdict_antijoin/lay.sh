set -e
# step 1
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l

# step 2 (written by hand after looking at a few messages with head)
head -c 300 /root/q/inbox/msg-0001.json; echo
cp "$SUBMISSION/schema.csv" /root/q/schema.csv

# step 3
cp "$SUBMISSION/consume.py" /root/q/consume.py
cd /root/q
python3 consume.py
sqlite3 ledger.db '.schema processed'

# step 4: counts and the ignored duplicates straight from the bookkeeping table
ls done | wc -l; ls error | wc -l
sqlite3 ledger.db 'SELECT COUNT(*) FROM processed'
sqlite3 ledger.db 'SELECT DISTINCT msg_id FROM ignored_duplicate ORDER BY msg_id' > dup.txt

# step 5: export of the rejected table
sqlite3 -header -csv ledger.db 'SELECT file, reason FROM rejected ORDER BY file' > error.csv

# step 6
cp "$SUBMISSION/order-check.sql" /root/q/order-check.sql
rows=$(sqlite3 ledger.db < order-check.sql)
if [ -n "$rows" ]; then
    printf 'NG\n%s\n' "$rows" > order-result.txt
else
    echo "OK" > order-result.txt
fi

# steps 7, 8
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x /root/q/lag.sh /root/q/replay.sh
./lag.sh /root/q 20 || true
