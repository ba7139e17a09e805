#!/usr/bin/env bash
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
cp "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py /root/eaimw/mq/
python3 topology.py
python3 topology.py && echo "second run ok"
nohup python3 /opt/lab/fixtures/eaimw/partner.py claim > /root/eaimw/mq/claim.out 2>&1 &
partner_pid=$!
sleep 1
for c in clm-1466 clm-1467 clm-1468 clm-1469 clm-1470 busy-1471; do
    python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/$c.json
done
python3 consumer.py --claim http://127.0.0.1:9202 --max-seconds 6
# restart: publish one that was done already -> must be acked without a POST
python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1468.json
python3 consumer.py --claim http://127.0.0.1:9202 --max-seconds 3
curl -s http://127.0.0.1:9202/_stats | head -c 600; echo
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
kill $partner_pid
