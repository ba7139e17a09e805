#!/usr/bin/env bash
set -e
mkdir -p /root/eaimw/mq
cp "$SUBMISSION"/mqcommon.py "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py "$SUBMISSION"/Makefile /root/eaimw/mq/
cd /root/eaimw/mq
if command -v make >/dev/null; then make status; else rabbitmqctl -n rabbit@localhost status > status.txt; fi
python3 topology.py
python3 topology.py
