mkdir -p /root/eaimw/mq && cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > status.txt
cp "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" .
python3 topology.py; python3 topology.py
for f in /opt/lab/fixtures/eaimw/mq/claims/*.json; do python3 publish.py "$f"; done
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
