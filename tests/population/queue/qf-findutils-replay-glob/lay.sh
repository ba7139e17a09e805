mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
find /opt/lab/fixtures/eai/queue/inbox -maxdepth 1 -type f -name '*.json' -print0 | xargs -0 cp -n -t /root/q/inbox
find /root/q/inbox -type f | wc -l
find "$SUBMISSION" -maxdepth 1 -type f \( -name '*.py' -o -name '*.sh' -o -name '*.sql' -o -name 'schema.csv' \) ! -name lay.sh -print0 \
    | xargs -0 cp -t /root/q
chmod +x /root/q/*.sh
cd /root/q
python3 consume.py
for d in done error processing; do printf '%s ' "$d"; find $d -type f | wc -l; done
sqlite3 ledger.db 'select count(*) from processed'
# dup.txt: msg_ids that show up in more than one file in done/
find done -type f -print0 | xargs -0 jq -r .msg_id | sort | uniq -d > dup.txt
# error.csv: jq can't parse it -> parse, else a field is missing
{
    echo file,reason
    find error -type f -printf '%f\n' | sort | while read -r f; do
        if jq -e . "error/$f" >/dev/null 2>&1; then echo "$f,missing-field"; else echo "$f,parse"; fi
    done
} > error.csv
sqlite3 ledger.db < order-check.sql > order-result.txt
test -s order-result.txt || echo OK > order-result.txt
cat dup.txt error.csv order-result.txt
stat -c '%n %s' dup.txt error.csv
./lag.sh /root/q 3
