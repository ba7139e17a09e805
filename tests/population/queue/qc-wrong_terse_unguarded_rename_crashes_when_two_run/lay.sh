mkdir -p q/{inbox,processing,done,error};cp /opt/lab/fixtures/eai/queue/inbox/*.json q/inbox/;ls q/inbox|wc -l
cp $SUBMISSION/{consume.py,schema.csv,order-check.sql,lag.sh,replay.sh} q/
python3 q/consume.py;ls q/done|wc -l;ls q/error|wc -l
grep -ho '"msg_id": "[^"]*"' q/done/*|cut -d'"' -f4|sort|uniq -d>q/dup.txt
cat q/dup.txt
grep -l '"amount"' q/error/*
printf 'file,reason\nmsg-0006.json,parse\nmsg-0017.json,missing-field\n'>q/error.csv
[ -z "$(sqlite3 q/ledger.db<q/order-check.sql)" ]&&echo OK>q/order-result.txt
q/lag.sh q 0
