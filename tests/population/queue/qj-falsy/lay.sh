mkdir -p /root/q/{inbox,processing,done,error} && cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/ && cd /root/q && ls inbox | wc -l
cp "$SUBMISSION"/{consume.py,order-check.sql,lag.sh,replay.sh} . && chmod +x *.sh
printf 'field,type,role\nmsg_id,str,idempotency-key\norder_no,str,\nseq,int,sequence\namount,number,\ncurrency,str,\ncreated_at,str,\n' > schema.csv
(echo file,reason; python3 consume.py) > error.csv; cat error.csv
sort -u .dups > dup.txt; rm .dups; cat dup.txt
ls done | wc -l; ls error | wc -l; sqlite3 ledger.db 'select count(*) from processed'
r=$(sqlite3 ledger.db < order-check.sql); echo "${r:-OK}" > order-result.txt; cat order-result.txt
./lag.sh . 20; echo $?
