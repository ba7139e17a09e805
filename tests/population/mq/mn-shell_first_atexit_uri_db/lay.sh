#!/bin/bash
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq || exit 1
rabbitmqctl -n rabbit@localhost status 2>&1 | tee status.txt | grep -i 'high watermark'
for f in topology.py publish.py consumer.py; do
  cp "$SUBMISSION/$f" . && chmod +x "$f"
done
./topology.py && ./topology.py && echo "topology x2 ok"
./publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1466.json && echo "published, rc=$?"
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
