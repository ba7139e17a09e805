#!/usr/bin/env bash
set -e
mkdir -p /root/eaimw/mq && cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status &> status.txt
cp "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" .
