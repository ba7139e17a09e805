#!/bin/bash
set -eu
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > status.txt
grep -i "watermark" -A1 status.txt
install -m 0755 "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" .
./topology.py
./topology.py
cat > /tmp/claim-ok.json <<'JSON'
{"guid": "9e4b2d71-6a3c-4f08-b1d5-2c7e8a9f0b13", "claimId": "CLM-5521", "docs": ["invoice.pdf"], "amount": 210000}
JSON
./publish.py /tmp/claim-ok.json
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
