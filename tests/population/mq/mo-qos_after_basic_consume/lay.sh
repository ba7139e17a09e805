mkdir -p /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
grep "Memory high watermark" /root/eaimw/mq/status.txt
cd /root/eaimw/mq
cp "$SUBMISSION/topology.py" .
python3 topology.py
python3 topology.py
cp "$SUBMISSION/publish.py" .
cp "$SUBMISSION/consumer.py" .
