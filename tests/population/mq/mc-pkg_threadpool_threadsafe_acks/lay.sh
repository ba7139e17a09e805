#!/usr/bin/env bash
set -euo pipefail
M=/root/eaimw/mq
mkdir -p "$M/eaimq"
rabbitmqctl -n rabbit@localhost status > "$M/status.txt"
cp "$SUBMISSION"/eaimq/*.py "$M/eaimq/"
cp "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py "$M/"
cd "$M"
python3 topology.py && python3 topology.py
