#!/usr/bin/env bash
set -euo pipefail
mkdir -p /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
for f in config.py common.py topology.py publish.py consumer.py; do
    cp "$SUBMISSION/$f" /root/eaimw/mq/
done
cd /root/eaimw/mq
python3 topology.py
