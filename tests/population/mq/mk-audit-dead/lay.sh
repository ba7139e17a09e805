#!/usr/bin/env bash
set -eu
MQ=/root/eaimw/mq
mkdir -p $MQ
rabbitmqctl -n rabbit@localhost status > $MQ/status.txt
grep -c "0.5369 gb" $MQ/status.txt
cp "$SUBMISSION"/topology.json "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py $MQ/
cd $MQ
python3 topology.py
python3 topology.py
python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1468.json
python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/busy-1471.json
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
