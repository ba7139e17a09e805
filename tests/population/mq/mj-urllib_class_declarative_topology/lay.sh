#!/usr/bin/env bash
set -e
M=/root/eaimw/mq
mkdir -p $M && cd $M
rabbitmqctl -n rabbit@localhost status > status.txt
grep "Memory high watermark" status.txt
install -m 755 "$SUBMISSION"/{topology,publish,consumer}.py $M/
./topology.py; ./topology.py
nohup python3 /opt/lab/fixtures/eaimw/partner.py claim > $M/claim.out 2>&1 &
sleep 1
for f in /opt/lab/fixtures/eaimw/mq/claims/*.json; do ./publish.py "$f" || echo "publish failed: $f"; done
./consumer.py --claim http://127.0.0.1:9202 --max-seconds 7
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
kill %1
