#!/bin/bash
set -euo pipefail
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > status.txt
grep -i -A1 "memory high watermark" status.txt
for f in claimmq.py topology.py publish.py consumer.py sample-claim.json; do
    cp "$SUBMISSION/$f" .
done
python3 topology.py
python3 topology.py
python3 publish.py sample-claim.json
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged arguments
