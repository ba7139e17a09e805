# What I ran, step by step
set -e
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
echo "inbox files: $(ls /root/q/inbox | wc -l)"

# Step 2: schema.csv (typed in the terminal; printf so the line endings match the csv module's)
printf 'field,type,role\r\nmsg_id,VARCHAR,idempotency-key\r\norder_no,VARCHAR,\r\nseq,INT,sequence\r\namount,DECIMAL,\r\ncurrency,VARCHAR,\r\ncreated_at,TIMESTAMP,\r\n' > /root/q/schema.csv

# Step 3
cp "$SUBMISSION/consume.py" "$SUBMISSION/report.py" /root/q/
python3 /root/q/consume.py

# Step 4, 5
python3 /root/q/report.py
echo "done=$(ls /root/q/done | wc -l) error=$(ls /root/q/error | wc -l)"
sqlite3 /root/q/ledger.db "SELECT COUNT(*) FROM processed;"
cat /root/q/dup.txt /root/q/error.csv

# Step 6
cp "$SUBMISSION/order-check.sql" /root/q/
RESULT="$(sqlite3 -header /root/q/ledger.db < /root/q/order-check.sql)"
if [ -z "$RESULT" ]; then
    echo "OK" > /root/q/order-result.txt
else
    echo "$RESULT" > /root/q/order-result.txt
fi

# Step 7, 8
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x /root/q/*.sh /root/q/*.py
/root/q/lag.sh /root/q 20 && echo "lag OK"
if /root/q/replay.sh msg-0006.json missing.json; then echo "unexpected"; fi
ls /root/q/error
