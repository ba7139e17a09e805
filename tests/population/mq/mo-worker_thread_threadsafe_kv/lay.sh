mkdir -p ~/eaimw/mq
rabbitmqctl -n rabbit@localhost status > ~/eaimw/mq/status.txt
grep "Memory high watermark" ~/eaimw/mq/status.txt
cd ~/eaimw/mq
for f in topology.py publish.py consumer.py; do cp "$SUBMISSION/$f" .; done
python3 topology.py
python3 topology.py
