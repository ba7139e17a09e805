# the steps this student performed, in order
install -d /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
install -m 0644 "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" /root/eaimw/mq/
cd /root/eaimw/mq
python3 -m py_compile topology.py publish.py consumer.py
python3 topology.py
python3 topology.py
