#!/usr/bin/env bash
set -e
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > status.txt
cp "$SUBMISSION"/{topology,publish,consumer}.py .
python3 topology.py
python3 topology.py
echo "topology ok (ran twice)"
