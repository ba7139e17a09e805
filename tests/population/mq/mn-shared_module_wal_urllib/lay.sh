#!/usr/bin/env bash
set -eu
M=/root/eaimw/mq
mkdir -p $M
rabbitmqctl -n rabbit@localhost status > $M/status.txt
grep 'Memory high watermark' $M/status.txt
install -m 0755 "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py $M/
install -m 0644 "$SUBMISSION"/mqcommon.py $M/
cd /tmp
$M/topology.py
$M/topology.py
$M/publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1469.json
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
