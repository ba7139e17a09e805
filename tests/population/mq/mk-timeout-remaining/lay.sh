#!/usr/bin/env bash
set -euo pipefail
D=/root/eaimw/mq
mkdir -p "$D"
rabbitmqctl -n rabbit@localhost status | tee "$D/status.txt" | grep -i "watermark"
for f in topology.py publish.py consumer.py; do
    install -m 0755 "$SUBMISSION/$f" "$D/$f"
done
cd "$D"
./topology.py
./topology.py   # second run must be a no-op
for c in /opt/lab/fixtures/eaimw/mq/claims/*.json; do
    ./publish.py "$c"
done
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
