#!/usr/bin/env bash
set -e
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
# step 1 (the broker was started with: bash /opt/lab/fixtures/eaimw/mq/mq-up.sh)
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
grep -i "high watermark" status.txt
cp "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" /root/eaimw/mq/
python3 topology.py
python3 topology.py
