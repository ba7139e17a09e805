mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
cp "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py .
chmod +x *.py
python3 topology.py
python3 topology.py && echo "topology twice: ok"
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
