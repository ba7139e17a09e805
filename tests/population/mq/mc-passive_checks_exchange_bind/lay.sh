#!/usr/bin/env bash
set -e
mkdir -p /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status | tee /root/eaimw/mq/status.txt | grep -i watermark
cp "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py /root/eaimw/mq/
python3 /root/eaimw/mq/topology.py
python3 /root/eaimw/mq/topology.py   # second run must be a no-op
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged arguments
