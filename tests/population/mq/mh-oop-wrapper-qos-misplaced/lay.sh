#!/usr/bin/env bash
set -euo pipefail
mkdir -p /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
cat /root/eaimw/mq/status.txt | grep -i watermark
for f in topology.py publish.py consumer.py; do
    cp "$SUBMISSION/$f" /root/eaimw/mq/
done
