# the steps this student performed, in order (files were written on Windows and uploaded as they are)
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
cp "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" "$SUBMISSION/my-claim.json" /root/eaimw/mq/
python3 topology.py
python3 topology.py
