#!/usr/bin/env bash
set -euo pipefail
W=/root/eaimw/mq
mkdir -p "$W"
rabbitmqctl -n rabbit@localhost status > "$W/status.txt"
grep -q "0.5369 gb" "$W/status.txt" && echo "watermark ok (512MiB)"
install -m 0644 "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" "$W/"
cd "$W"
python3 topology.py && python3 topology.py
