set -euo pipefail
Q=/root/q
mkdir -p "$Q"/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json "$Q/inbox/"
test "$(ls "$Q/inbox" | wc -l)" -eq 20
cd "$Q"
install -m 0644 "$SUBMISSION/schema.csv" "$SUBMISSION/order-check.sql" .
install -m 0755 "$SUBMISSION/consume.py" "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" .
./consume.py
echo "done=$(ls done | wc -l) error=$(ls error | wc -l)"
sqlite3 -header -column ledger.db 'SELECT outcome, COUNT(*) FROM audit_event GROUP BY outcome'
sqlite3 ledger.db 'SELECT COUNT(*) FROM processed'
result=$(sqlite3 -header -csv ledger.db < order-check.sql)
if [[ -z $result ]]; then
    printf 'OK\n' > order-result.txt
else
    printf 'NG\n%s\n' "$result" > order-result.txt
fi
cat dup.txt error.csv order-result.txt
./lag.sh "$Q" 100
