#!/usr/bin/env bash
set -e
mkdir -p /root/eaimw/mq
# broker is up (mq-up.sh); keep its status
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
cp "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py /root/eaimw/mq/
chmod +x /root/eaimw/mq/*.py
cd /root/eaimw/mq
./topology.py
./topology.py   # twice, must not fail
rabbitmqctl -n rabbit@localhost list_queues name type durable arguments
