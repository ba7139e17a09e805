set -eu
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > status.txt
grep -q '0.5369 gb' status.txt && echo "watermark is 512MiB"
install -m 0755 "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" /root/eaimw/mq/
./topology.py
./topology.py
rabbitmqctl -n rabbit@localhost list_queues name arguments
