mkdir -p /root/eaimw/mq && cd /root/eaimw/mq || exit 1
rabbitmqctl -n rabbit@localhost status > status.txt
grep "Memory high watermark" status.txt
cp "$SUBMISSION/topology.py" topology.py
cp "$SUBMISSION/publish.py" publish.py
cp "$SUBMISSION/consumer.py" consumer.py
python3 topology.py; echo "run 1: $?"
python3 topology.py; echo "run 2: $?"
