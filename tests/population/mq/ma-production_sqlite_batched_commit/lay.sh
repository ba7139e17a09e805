set -e
MQ=/root/eaimw/mq
mkdir -p $MQ
rabbitmqctl -n rabbit@localhost status > $MQ/status.txt
cp "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" $MQ/
python3 $MQ/topology.py
python3 $MQ/topology.py
