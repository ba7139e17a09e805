#!/usr/bin/env bash
set -eu
mkdir -p /root/eaimw/mq
# -q: skip the "Status of node ..." banner, the rest is the status output
rabbitmqctl -q -n rabbit@localhost status > /root/eaimw/mq/status.txt
cp "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py /root/eaimw/mq/
