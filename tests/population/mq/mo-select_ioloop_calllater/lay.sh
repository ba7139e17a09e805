# what I typed in the pod (broker was already up)
set -e
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
grep 'Memory high watermark' status.txt
cp "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" .
chmod +x topology.py publish.py consumer.py
python3 topology.py
python3 topology.py
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
