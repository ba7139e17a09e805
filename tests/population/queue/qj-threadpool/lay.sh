# step 1
mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
# step 2 (written by hand in an editor that saves CRLF)
cp "$SUBMISSION/schema.csv" /root/q/schema.csv
# step 3
cp "$SUBMISSION/consume.py" "$SUBMISSION/order-check.sql" "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" /root/q/
chmod +x /root/q/*.sh /root/q/consume.py
cd /root/q
python3 consume.py | tee run.log
# step 4
ls done | wc -l; ls error | wc -l
sqlite3 ledger.db 'SELECT count(*) FROM processed'
awk '$1 == "DUP" {print $3}' run.log | sort > dup.txt
cat dup.txt
# step 5
{ echo 'file,reason'; awk '$1 == "ERROR" {print $2 "," $3}' run.log | sort; } > error.csv
cat error.csv
# step 6
sqlite3 -header -column ledger.db < order-check.sql > order-rows.txt
if [ -s order-rows.txt ]; then cp order-rows.txt order-result.txt; else printf 'OK\n(0 rows)\n' > order-result.txt; fi
rm -f order-rows.txt
cat order-result.txt
# step 7, 8: try them
./lag.sh /root/q 5; echo "lag exit $?"
./replay.sh does-not-exist.json; echo "replay exit $?"
