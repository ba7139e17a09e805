#!/usr/bin/env bash
set -euo pipefail
mq=/root/eaimw/mq
mkdir -p "$mq"
# status output has ANSI bold codes even when redirected; strip them so the file reads cleanly
rabbitmqctl -n rabbit@localhost status | sed 's/\x1b\[[0-9;]*m//g' > "$mq/status.txt"
grep 'Memory high watermark' "$mq/status.txt"
cp "$SUBMISSION/common.py" "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" "$mq/"
chmod 755 "$mq"/topology.py "$mq"/publish.py "$mq"/consumer.py
