mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
cp "$SUBMISSION"/mqkit.py "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py .
rabbitmqctl -n rabbit@localhost status > status.txt
python3 topology.py
python3 topology.py
