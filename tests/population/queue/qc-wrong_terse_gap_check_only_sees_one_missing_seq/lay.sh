mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox
cp $SUBMISSION/*.py $SUBMISSION/*.csv $SUBMISSION/*.sql $SUBMISSION/lag.sh $SUBMISSION/replay.sh /root/q
cd /root/q;python3 consume.py
ls done|wc -l;ls error|wc -l;sqlite3 ledger.db 'select count(*) from processed'
for f in done/*;do python3 -c 'import json,sys;print(json.load(open(sys.argv[1]))["msg_id"])' $f;done|sort|uniq -d>dup.txt
for f in error/*;do python3 -c 'import json,sys;json.load(open(sys.argv[1]))' $f 2>/dev/null&&r=missing-field||r=parse;echo ${f#error/},$r;done|sed '1i file,reason'>error.csv
sqlite3 ledger.db<order-check.sql>order-result.txt;[ -s order-result.txt ]||echo OK>order-result.txt
sh lag.sh /root/q 3
