#!/usr/bin/env bash
# what I typed in the pod terminal (files were written on Windows and uploaded as they were)
mkdir -p /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status | tee /root/eaimw/mq/status.txt | grep -i watermark
cp "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py /root/eaimw/mq/
cd /root/eaimw/mq
python3 topology.py && echo "topology done"
python3 topology.py && echo "topology done again"
python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1467.json
python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1468.json
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
