# what I did for the mq lab (broker already up from mq-up.sh)
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
grep -i "high watermark" status.txt
for f in topology.py publish.py consumer.py; do
    cp "$SUBMISSION/$f" /root/eaimw/mq/
    chmod +x /root/eaimw/mq/$f
done
./topology.py
./topology.py
