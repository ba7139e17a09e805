mkdir -p /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
grep -n "watermark" /root/eaimw/mq/status.txt
cp "$SUBMISSION"/topology.py /root/eaimw/mq/
cp "$SUBMISSION"/publish.py /root/eaimw/mq/
cp "$SUBMISSION"/consumer.py /root/eaimw/mq/
cd /root/eaimw/mq
python3 topology.py && echo "first run ok"
python3 topology.py && echo "second run ok"
python3 consumer.py --help
