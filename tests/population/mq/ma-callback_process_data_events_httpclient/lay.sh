mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
rabbitmqctl status -n rabbit@localhost > status.txt
cp "$SUBMISSION"/*.py .
python3 topology.py && python3 topology.py && echo "topology ok twice"
