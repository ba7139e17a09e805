#!/usr/bin/env bash
mkdir -p /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
grep 'Memory high watermark' /root/eaimw/mq/status.txt
install -m 0755 "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py /root/eaimw/mq/
cd /root/eaimw/mq
./topology.py
./topology.py
./publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1467.json
