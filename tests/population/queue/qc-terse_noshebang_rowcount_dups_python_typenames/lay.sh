# what I typed in the pod
mkdir -p q/{inbox,processing,done,error}
cp /opt/lab/fixtures/eai/queue/inbox/*.json q/inbox/
ls q/inbox|wc -l
cp $SUBMISSION/{schema.csv,consume.py,order-check.sql,lag.sh,replay.sh} q/
cd q
python3 consume.py|sort>dup.txt
ls done|wc -l;ls error|wc -l
# error.csv: looked at the two files by hand
head -c 200 error/*
cat >error.csv<<X
file,reason
msg-0006.json,parse
msg-0017.json,missing-field
X
r=$(sqlite3 ledger.db<order-check.sql);echo "${r:-OK}">order-result.txt
bash lag.sh /root/q 5
