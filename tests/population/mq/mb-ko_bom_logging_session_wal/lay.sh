mkdir -p /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status | tee /root/eaimw/mq/status.txt | grep -i "watermark"
cp "$SUBMISSION"/*.py /root/eaimw/mq/
cd /root/eaimw/mq
python3 topology.py && python3 topology.py
