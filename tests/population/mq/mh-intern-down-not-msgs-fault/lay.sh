#!/usr/bin/env bash
set -euo pipefail
mkdir -p /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
cp "$SUBMISSION"/{topology,publish,consumer}.py /root/eaimw/mq/
python3 /root/eaimw/mq/topology.py
