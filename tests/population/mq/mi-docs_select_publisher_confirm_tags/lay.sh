#!/usr/bin/env bash
# what I did in the pod, in order
set -u
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
# step 1 (the broker was already up: mq-up.sh said "already answers")
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
grep -i "memory high watermark" /root/eaimw/mq/status.txt
# my three scripts
cp "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" /root/eaimw/mq/
chmod +x /root/eaimw/mq/*.py
# step 2: twice, to see it is safe
python3 topology.py
python3 topology.py
# the claim system
nohup python3 /opt/lab/fixtures/eaimw/partner.py claim > /root/eaimw/mq/claim.out 2>&1 &
partner=$!
sleep 1
# step 3: every fixture claim
for f in /opt/lab/fixtures/eaimw/mq/claims/*.json; do
    python3 publish.py "$f"; echo "publish $(basename "$f") -> exit $?"
done
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
# steps 4-8
python3 consumer.py --claim http://127.0.0.1:9202 --max-seconds 8
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
curl -s http://127.0.0.1:9202/_stats | python3 -c 'import json,sys; print(json.load(sys.stdin)["by_guid"])'
# the same claim again: must be skipped (already in processed.db)
python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1466.json
python3 consumer.py --claim http://127.0.0.1:9202 --max-seconds 3
curl -s http://127.0.0.1:9202/_stats | python3 -c 'import json,sys; print(json.load(sys.stdin)["by_guid"])'
sqlite3 processed.db 'select * from processed' 2>/dev/null || true
kill "$partner"
