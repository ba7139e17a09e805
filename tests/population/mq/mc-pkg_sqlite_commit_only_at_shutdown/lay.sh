#!/usr/bin/env bash
set -euo pipefail
mkdir -p /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
cp "$SUBMISSION"/cfg.py "$SUBMISSION"/mqcommon.py "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py /root/eaimw/mq/
python3 /root/eaimw/mq/topology.py
