#!/usr/bin/env bash
set -e
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > status.txt
grep "Memory high watermark" status.txt
for f in topology.py publish.py consumer.py; do cp "$SUBMISSION/$f" .; done
python3 topology.py
python3 topology.py
rabbitmqctl -n rabbit@localhost list_exchanges name type durable | grep eai
