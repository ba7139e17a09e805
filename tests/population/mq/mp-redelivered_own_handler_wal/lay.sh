mkdir -p /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
cp "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" /root/eaimw/mq/
cd /root/eaimw/mq
python3 topology.py
python3 topology.py
rabbitmqctl -n rabbit@localhost list_exchanges name type durable | grep eai
