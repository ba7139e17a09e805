mkdir -p /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status | tee /root/eaimw/mq/status.txt | grep -A1 -i watermark
cp "$SUBMISSION/topology.py" /root/eaimw/mq/
cp "$SUBMISSION/publish.py" /root/eaimw/mq/
cp "$SUBMISSION/consumer.py" /root/eaimw/mq/
python3 /root/eaimw/mq/topology.py
python3 /root/eaimw/mq/topology.py
