#!/bin/bash
set -e
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > status.txt
cp "$SUBMISSION"/mqcommon.py "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py .
python3 topology.py
python3 topology.py
printf '%s\n' '{"guid": "e2b7c9a0-41d3-4f6e-8a25-9c7b3e1d0f58", "claimId": "CLM-9", "docs": ["receipt.pdf"]}' > claim.json
python3 publish.py claim.json
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
