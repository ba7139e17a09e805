set -eu
Q=/root/q
mkdir -p $Q/inbox $Q/processing $Q/done $Q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json $Q/inbox/
test "$(ls $Q/inbox/*.json | wc -l)" -eq 20
install -m 644 "$SUBMISSION/schema.csv" "$SUBMISSION/order-check.sql" $Q/
install -m 755 "$SUBMISSION/consume.py" "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" $Q/
$Q/consume.py --help
$Q/consume.py -v | tee $Q/consume.out
sqlite3 $Q/ledger.db '.schema processed'
# dup.txt / error.csv from the summary consume.py printed
sed -n 's/^  dup:   //p' $Q/consume.out | sort > $Q/dup.txt
{ echo 'file,reason'; sed -n 's/^  error: //p' $Q/consume.out | sort; } > $Q/error.csv
cd $Q
sqlite3 ledger.db < order-check.sql > order-result.txt
test -s order-result.txt || echo OK > order-result.txt
cat dup.txt error.csv order-result.txt
./lag.sh $Q 5
./lag.sh || true
./replay.sh || true
