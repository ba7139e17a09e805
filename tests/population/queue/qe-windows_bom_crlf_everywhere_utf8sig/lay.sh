set -e
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l

# files come over from the Windows side as saved by the editor (UTF-8 BOM, CRLF)
cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" /root/q/
cd /root/q
python3 consume.py

ls done | wc -l; ls error | wc -l
sqlite3 ledger.db 'SELECT COUNT(*) FROM processed'
# dup.txt and error.csv typed in the editor from consume.py's output above
cp "$SUBMISSION/dup.txt" "$SUBMISSION/error.csv" /root/q/

cp "$SUBMISSION/order-check.sql" /root/q/
sqlite3 ledger.db < order-check.sql
cp "$SUBMISSION/order-result.txt" /root/q/

cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
# first try: "$'\r': command not found" -> strip BOM and CR from the shell scripts only
sed -i '1s/^\xEF\xBB\xBF//; s/\r$//' lag.sh replay.sh
chmod +x lag.sh replay.sh
./lag.sh /root/q 20
