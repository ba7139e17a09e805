#!/usr/bin/env bash
set -e
mkdir -p /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
cp "$SUBMISSION"/{settings,common,topology,publish,consumer}.py /root/eaimw/mq/
python3 /root/eaimw/mq/topology.py
