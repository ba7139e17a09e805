set -e
mkdir -p /root/q
cd /root/q
mkdir inbox processing done error
cp /opt/lab/fixtures/eai/queue/inbox/*.json inbox/
ls inbox | wc -l
cp "$SUBMISSION/schema.csv" .
cp "$SUBMISSION/consume.py" .
python3 consume.py > consume.tsv
ls done | wc -l; ls error | wc -l; ls processing | wc -l
sqlite3 ledger.db 'select count(*) from processed'
awk -F'\t' '$1 == "duplicate" { print $3 }' consume.tsv | sort > dup.txt
{ echo file,reason; awk -F'\t' '$1 == "error" { print $2 "," $3 }' consume.tsv; } > error.csv
cp "$SUBMISSION/order-check.sql" .
sqlite3 ledger.db < order-check.sql | tee order-rows.txt
if [ -s order-rows.txt ]; then (echo FAIL; cat order-rows.txt) > order-result.txt; else echo OK > order-result.txt; fi
rm -f order-rows.txt
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" .
chmod +x lag.sh replay.sh
./lag.sh /root/q 20
./replay.sh msg-0006.json
./lag.sh /root/q 20
# put it back where it was: run the consumer once more
python3 consume.py >> consume.tsv
ls error
