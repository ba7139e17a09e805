#!/usr/bin/env bash
set -e
mkdir -p /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
cp "$SUBMISSION/topology.py" /root/eaimw/mq/topology.py
cp "$SUBMISSION/publish.py" /root/eaimw/mq/publish.py
cp "$SUBMISSION/consumer.py" /root/eaimw/mq/consumer.py
