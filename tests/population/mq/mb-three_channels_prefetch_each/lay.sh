set -e
mkdir -p /root/eaimw/mq
cp "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py /root/eaimw/mq/
chmod +x /root/eaimw/mq/*.py
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
/root/eaimw/mq/topology.py
