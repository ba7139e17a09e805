mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
cd /root/q

# lag.sh first, to watch the queue drain
cp "$SUBMISSION/lag.sh" /root/q/
chmod +x lag.sh
./lag.sh /root/q 10; echo "rc=$?"    # 20 files, over 10 -> 1

cp "$SUBMISSION/schema.csv" "$SUBMISSION/consume.py" /root/q/
python3 consume.py | tee run.log
./lag.sh /root/q 10; echo "rc=$?"    # 0 files -> 0
ls done | wc -l; ls error | wc -l; ls processing | wc -l
sqlite3 ledger.db '.schema processed' 'select count(*) from processed'

awk -F'\t' '$1 == "dup" { print $2 }' run.log > dup.txt
{ echo "file,reason"; awk -F'\t' '$1 == "error" { print $2 "," $3 }' run.log; } > error.csv
cat dup.txt error.csv

cp "$SUBMISSION/order-check.sql" /root/q/
out=$(sqlite3 ledger.db < order-check.sql)
if [[ -z $out ]]; then echo OK > order-result.txt; else echo "$out" > order-result.txt; fi
cat order-result.txt

cp "$SUBMISSION/replay.sh" /root/q/
chmod +x replay.sh
./replay.sh msg-0017.json; echo "rc=$?"
./lag.sh /root/q 0; echo "rc=$?"     # 1 over 0 -> 1
./lag.sh /root/q 1; echo "rc=$?"     # 1 not over 1 -> 0
python3 consume.py
./replay.sh msg-0017.json.json; echo "rc=$?"
ls error
