mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l

printf 'field,type,role\nmsg_id,text,idempotency-key\norder_no,text,\nseq,integer,sequence\namount,numeric,\ncurrency,text,\ncreated_at,timestamp,\n' > /root/q/schema.csv

cp "$SUBMISSION/consume.py" /root/q/
python3 /root/q/consume.py > /root/consume.out
cat /root/consume.out
ls /root/q/done | wc -l; ls /root/q/error | wc -l
# 15 booked rows (the rejected one is there for the audit only)
sqlite3 /root/q/ledger.db "SELECT COUNT(*) FROM processed WHERE status = 'done'"
sqlite3 /root/q/ledger.db "SELECT status, COUNT(*) FROM processed GROUP BY status"

grep '^DUPLICATE ' /root/consume.out | awk '{print $3}' | sort > /root/q/dup.txt
{ echo "file,reason"; grep '^REJECT ' /root/consume.out | awk '{print $2 "," $3}'; } > /root/q/error.csv

cp "$SUBMISSION/order-check.sql" /root/q/
rows=$(sqlite3 /root/q/ledger.db < /root/q/order-check.sql)
if [ -z "$rows" ]; then echo OK > /root/q/order-result.txt; else echo "$rows" > /root/q/order-result.txt; fi

cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x /root/q/lag.sh /root/q/replay.sh
/root/q/lag.sh /root/q 5; echo $?
/root/q/replay.sh msg-9999.json; echo $?
