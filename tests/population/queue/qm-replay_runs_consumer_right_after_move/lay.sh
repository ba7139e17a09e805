# step 1
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l

# step 2
cat > /root/q/schema.csv <<'END'
field,type,role
msg_id,string,idempotency-key
order_no,string,
seq,integer,sequence
amount,number,
currency,string,
created_at,timestamp,
END

# step 3
cp "$SUBMISSION/consume.py" /root/q/consume.py
python3 /root/q/consume.py | tee /root/consume-run1.txt

# step 4
ls /root/q/done | wc -l
ls /root/q/error | wc -l
sqlite3 /root/q/ledger.db "SELECT COUNT(*) FROM processed"
grep 'duplicate' /root/consume-run1.txt | awk '{print $3}' | sort > /root/q/dup.txt
cat /root/q/dup.txt

# step 5
echo "file,reason" > /root/q/error.csv
grep ': error (' /root/consume-run1.txt | sed 's/: error (\(.*\))$/,\1/' >> /root/q/error.csv
cat /root/q/error.csv

# step 6
cp "$SUBMISSION/order-check.sql" /root/q/
OUT=$(sqlite3 /root/q/ledger.db < /root/q/order-check.sql)
if [ -z "$OUT" ]; then echo OK > /root/q/order-result.txt; else echo "$OUT" > /root/q/order-result.txt; fi

# step 7
cp "$SUBMISSION/lag.sh" /root/q/lag.sh
chmod +x /root/q/lag.sh
/root/q/lag.sh /root/q 10; echo "exit=$?"

# step 8 - try it on the broken message: it is still broken, so it lands in error/ again
cp "$SUBMISSION/replay.sh" /root/q/replay.sh
chmod +x /root/q/replay.sh
/root/q/replay.sh msg-0006.json; echo "exit=$?"
ls /root/q/error
/root/q/replay.sh nope.json; echo "exit=$?"
