#!/bin/bash
# what I did in the pod, in order
set -e
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq

# 1. broker is up (rabbit@localhost); keep its status
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
grep -A2 -i "memory high watermark" status.txt || true

# 2-4. my scripts
cp "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" .
cp "$SUBMISSION/claim-sample.json" .
chmod +x topology.py publish.py consumer.py

python3 topology.py
python3 topology.py          # second run must be harmless
python3 publish.py claim-sample.json
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
