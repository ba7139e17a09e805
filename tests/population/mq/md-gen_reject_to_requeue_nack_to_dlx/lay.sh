#!/bin/bash
set -e
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
# 1단계 - 옵션을 명령 뒤에 붙여도 됨
rabbitmqctl status -n rabbit@localhost > /root/eaimw/mq/status.txt
grep -i watermark -A1 status.txt
# 2~4단계
cp "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" .
cp "$SUBMISSION/청구1.json" .
python3 topology.py
python3 topology.py
python3 publish.py 청구1.json
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
