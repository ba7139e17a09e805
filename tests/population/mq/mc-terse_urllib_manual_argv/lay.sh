#!/usr/bin/env bash
set -e
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
# broker is up already (mq-up.sh done by the pod); keep its status
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
cp "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" .
chmod +x topology.py publish.py consumer.py
./topology.py
./topology.py
