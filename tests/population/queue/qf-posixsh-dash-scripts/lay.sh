set -e
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" "$SUBMISSION/order-check.sql" /root/q/
chmod 755 /root/q/lag.sh /root/q/replay.sh
# checked the shell scripts with dash before using them
dash -n /root/q/lag.sh
dash -n /root/q/replay.sh
cd /root/q
python3 consume.py | tee run.log
grep '^DUP' run.log | cut -f2 | sort -u > dup.txt
{ echo file,reason; grep '^ERROR' run.log | cut -f2,3 | tr '\t' , | sort; } > error.csv
sqlite3 ledger.db < order-check.sql > order-result.txt
if [ ! -s order-result.txt ]; then echo OK > order-result.txt; fi
cat dup.txt error.csv order-result.txt
dash ./lag.sh /root/q 10
