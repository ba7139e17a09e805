# what I typed, in order (from ~/.bash_history)
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp -p /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls -1 /root/q/inbox | wc -l

# message layout
jq . /root/q/inbox/msg-0001.json
# schema.csv typed on the laptop, scp'd over
cp "$SUBMISSION/schema.csv" /root/q/

cp "$SUBMISSION/consume.py" "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" "$SUBMISSION/order-check.sql" /root/q/
chmod 755 /root/q/consume.py /root/q/lag.sh /root/q/replay.sh
cd /root/q && python3 consume.py

ls done | wc -l; ls error | wc -l
sqlite3 ledger.db 'select count(*) from processed;'
# which msg_ids were dropped as duplicates
jq -r .msg_id done/*.json | sort | uniq -d
ls error
# dup.txt / error.csv typed from the above on the laptop
cp "$SUBMISSION/dup.txt" "$SUBMISSION/error.csv" /root/q/

# order check
sqlite3 ledger.db < order-check.sql | tee /tmp/oc.txt
if [ -s /tmp/oc.txt ]; then cp /tmp/oc.txt order-result.txt; else echo OK > order-result.txt; fi
rm -f /tmp/oc.txt

sh ./lag.sh /root/q 20; echo "lag: $?"
