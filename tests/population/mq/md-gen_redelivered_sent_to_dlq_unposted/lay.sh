#!/bin/bash
set -e
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
cp "$SUBMISSION"/*.py /root/eaimw/mq/
python3 topology.py
python3 topology.py
echo '{"guid":"5b0e8c4d-2f6a-4d1b-b7e9-81c3a0f2d645","claimId":"C-77","docs":["a.pdf"]}' > test.json
python3 publish.py test.json
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
