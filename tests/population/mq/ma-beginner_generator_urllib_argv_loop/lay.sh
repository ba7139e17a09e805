mkdir -p /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
cp "$SUBMISSION/topology.py" /root/eaimw/mq/topology.py
cp "$SUBMISSION/publish.py" /root/eaimw/mq/publish.py
cp "$SUBMISSION/consumer.py" /root/eaimw/mq/consumer.py
cd /root/eaimw/mq
python3 topology.py
python3 topology.py
python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1466.json
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
