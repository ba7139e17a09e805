#!/usr/bin/env bash
set -euo pipefail
mkdir -p /root/eaimw/mq
# step 1 -- the broker is already up in my pod; long option spelling, same command
rabbitmqctl --node rabbit@localhost status > /root/eaimw/mq/status.txt
grep -q "0.5369 gb" /root/eaimw/mq/status.txt && echo "watermark ok"
for f in topology.py publish.py consumer.py; do
    install -m 0755 "$SUBMISSION/$f" "/root/eaimw/mq/$f"
done
# I checked the declarations twice, as the lab asks
python3 /root/eaimw/mq/topology.py
python3 /root/eaimw/mq/topology.py
