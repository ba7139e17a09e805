mkdir -p /root/q/{inbox,processing,done,error} && cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/ && cd /root/q && ls inbox | wc -l
cp "$SUBMISSION"/{consume.py,lag.sh,replay.sh,order-check.sql} . && chmod +x *.sh
python3 -c 'import json;m=json.load(open("inbox/msg-0001.json"));print("field,type,role");[print(k,{str:"string",int:"integer"}[type(v)],{"msg_id":"idempotency-key","seq":"sequence"}.get(k,""),sep=",") for k,v in m.items()]' > schema.csv && cat schema.csv
./lag.sh . 10 || echo backlog!
(echo file,reason; python3 consume.py) > error.csv && cat error.csv
cat done/* | grep -o '"msg_id": "[^"]*"' | cut -d'"' -f4 | sort | uniq -d > dup.txt && cat dup.txt
sqlite3 ledger.db 'select count(*) from processed'; ls done | wc -l; ls error | wc -l
r=$(sqlite3 ledger.db < order-check.sql); echo "${r:-OK}" > order-result.txt && cat order-result.txt
