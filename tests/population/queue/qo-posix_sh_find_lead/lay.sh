# what I typed, in order
set -e
# 1. queue dirs + fixtures
mkdir -p /root/q
cd /root/q
mkdir -p inbox processing done error
find /opt/lab/fixtures/eai/queue/inbox -maxdepth 1 -type f -name '*.json' -exec cp -p {} inbox/ \;
find inbox -maxdepth 1 -type f | wc -l          # 20

# 2. looked at the keys with jq, then wrote schema.csv by hand
jq -r 'keys_unsorted | join(",")' inbox/msg-0001.json
cp "$SUBMISSION/schema.csv" .

# 3. consumer
cp "$SUBMISSION/consume.py" .
python3 consume.py > consume.log
ls processing | wc -l                             # 0

# 4. checks + dup.txt from the log
ls done | wc -l; ls error | wc -l                 # 18 / 2
sqlite3 ledger.db 'SELECT count(*) FROM processed'  # 15
awk '$1 == "duplicate" { print $2 }' consume.log | sort > dup.txt

# 5. error.csv from the log
{
    echo 'file,reason'
    awk '$1 == "error" { print $3 "," $2 }' consume.log | sort
} > error.csv

# 6. order check
cp "$SUBMISSION/order-check.sql" .
rows=$(sqlite3 ledger.db < order-check.sql)
if [ -z "$rows" ]; then
    echo OK > order-result.txt
else
    printf 'NG\n%s\n' "$rows" > order-result.txt
fi

# 7. 8. scripts
cp "$SUBMISSION/lag.sh" "$SUBMISSION/replay.sh" .
chmod +x lag.sh replay.sh
sh lag.sh /root/q 100 || true
sh replay.sh no-such-file.json || true
