#!/usr/bin/env bash
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
grep -i "watermark" status.txt
cp "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py /root/eaimw/mq/
python3 topology.py
python3 topology.py
nohup python3 /opt/lab/fixtures/eaimw/partner.py claim > /root/eaimw/mq/claim.out 2>&1 &
partner=$!
sleep 1
for f in /opt/lab/fixtures/eaimw/mq/claims/*.json; do
    python3 publish.py "$f"
done
python3 consumer.py --claim http://127.0.0.1:9202 --max-seconds 8
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
curl -s http://127.0.0.1:9202/_stats | python3 -c 'import json,sys; print(json.load(sys.stdin)["by_guid"])'
kill $partner
