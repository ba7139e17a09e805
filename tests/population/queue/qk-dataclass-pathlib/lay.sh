# steps as I did them, in order
set -e
# 1. queue directories + fixtures
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l            # 20
# 2. schema (written by hand after reading the messages)
cp "$SUBMISSION/schema.csv" /root/q/schema.csv
# 3. consumer
cp "$SUBMISSION/consume.py" "$SUBMISSION/report.py" "$SUBMISSION/order-check.sql" /root/q/
python3 /root/q/consume.py
ls /root/q/done | wc -l; ls /root/q/error | wc -l
sqlite3 /root/q/ledger.db '.schema processed'
sqlite3 /root/q/ledger.db 'select count(*) from processed'
# 4-6. dup.txt, error.csv, order-result.txt
python3 /root/q/report.py
cat /root/q/dup.txt /root/q/error.csv /root/q/order-result.txt
# 7-8. scripts (python behind a shebang)
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x /root/q/lag.sh /root/q/replay.sh /root/q/consume.py /root/q/report.py
/root/q/lag.sh /root/q 0 || echo "lag exit $?"
