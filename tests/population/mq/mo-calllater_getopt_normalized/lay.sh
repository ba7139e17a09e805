mkdir -p /root/eaimw/mq && cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
grep -i 'watermark' status.txt | head -1
cp "$SUBMISSION"/*.py /root/eaimw/mq/
python3 topology.py
python3 topology.py
