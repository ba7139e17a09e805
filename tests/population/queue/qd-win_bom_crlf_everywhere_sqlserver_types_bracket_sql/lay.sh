# step 1
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cat /root/q/inbox/msg-0001.json

# files uploaded from the Windows PC (WinSCP, binary mode) into /root/q
cp "$SUBMISSION/schema.csv" /root/q/
cp "$SUBMISSION/consume.py" /root/q/

# step 3
cd /root/q
python3 consume.py
ls done | wc -l
ls error | wc -l
ls processing | wc -l
sqlite3 /root/q/ledger.db '.schema processed'
sqlite3 /root/q/ledger.db 'select count(*) from processed'

# steps 4, 5: typed in VS Code from the output above, uploaded
cp "$SUBMISSION/dup.txt" "$SUBMISSION/error.csv" /root/q/

# step 6
cp "$SUBMISSION/order-check.sql" /root/q/
sqlite3 /root/q/ledger.db < /root/q/order-check.sql
echo "rows: $(sqlite3 /root/q/ledger.db < /root/q/order-check.sql | wc -l)"
cp "$SUBMISSION/order-result.txt" /root/q/

# step 7, 8: first try fails with $'\r': command not found ...
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
bash /root/q/lag.sh /root/q 5; echo "rc=$?"
# ... so strip the BOM and the CRs of the two shell scripts
sed -i '1s/^\xEF\xBB\xBF//; s/\r$//' /root/q/lag.sh /root/q/replay.sh
chmod +x /root/q/lag.sh /root/q/replay.sh
/root/q/lag.sh /root/q 5; echo "rc=$?"
/root/q/lag.sh /root/q 1; echo "rc=$?"
/root/q/replay.sh msg-0006.json; echo "rc=$?"
/root/q/lag.sh /root/q 0; echo "rc=$?"
# put it back the way it was
mv /root/q/inbox/msg-0006.json /root/q/error/
/root/q/replay.sh msg-0099.json; echo "rc=$?"
/root/q/replay.sh ../done/msg-0001.json; echo "rc=$?"
ls /root/q/inbox /root/q/error
