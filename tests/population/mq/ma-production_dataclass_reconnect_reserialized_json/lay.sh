set -e
mkdir -p /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status | tee /root/eaimw/mq/status.txt | grep -i watermark
install -m 0644 "$SUBMISSION"/amqp_common.py "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py /root/eaimw/mq/
python3 /root/eaimw/mq/topology.py --log-level INFO
