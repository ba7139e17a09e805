#!/bin/bash
set -e
mkdir -p /root/eaimw/mq && cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > status.txt
grep -i -A1 "watermark" status.txt || true
cp "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py .
python3 topology.py
python3 topology.py
cat > c1.json <<'JSON'
{"guid": "0d9e4f5a-7c21-4b8e-9f3a-2b6c8d1e4a77", "claimId": "C-1001", "docs": ["receipt.pdf"], "amount": 50000}
JSON
python3 publish.py c1.json
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
