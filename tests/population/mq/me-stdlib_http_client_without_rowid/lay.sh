# the steps this student performed, in order
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status | tee /root/eaimw/mq/status.txt > /dev/null
cp "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py .
chmod +x topology.py publish.py consumer.py
./topology.py
./topology.py
