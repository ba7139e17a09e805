mkdir -p /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
for f in topology.py publish.py consumer.py; do
    cp "$SUBMISSION/$f" /root/eaimw/mq/$f
done
cd /root/eaimw/mq && python3 topology.py
