#!/usr/bin/env bash
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
grep -n "Memory high watermark" status.txt
cp "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" .
python3 topology.py
python3 topology.py
nohup python3 /opt/lab/fixtures/eaimw/partner.py claim > /root/eaimw/mq/claim.out 2>&1 &
pid=$!
sleep 1
for f in /opt/lab/fixtures/eaimw/mq/claims/*.json; do
  python3 publish.py "$f"
done
python3 consumer.py --claim http://127.0.0.1:9202/ --max-seconds 7 | tee consumer.log
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
python3 -c "import sqlite3; [print(r) for r in sqlite3.connect('/root/eaimw/mq/processed.db').execute('select * from processed')]"
kill $pid
