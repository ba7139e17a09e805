#!/usr/bin/env bash
set -e
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
grep -i "high watermark" status.txt
cp "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" .
python3 topology.py
python3 topology.py
python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1466.json
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
