mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
cp "$SUBMISSION"/*.py .
chmod u+x *.py
rabbitmqctl -n rabbit@localhost status > status.txt
./topology.py
