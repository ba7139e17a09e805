#!/bin/bash
set -e
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
grep -i -A1 watermark status.txt
cp "$SUBMISSION"/{topology,publish,consumer}.py "$SUBMISSION"/claim-kr.json .
python3 topology.py
python3 topology.py
python3 publish.py claim-kr.json
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
