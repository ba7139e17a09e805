set -eu
mkdir -p /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
cd /root/eaimw/mq
for f in topology.py publish.py consumer.py; do
    install -m 755 "$SUBMISSION/$f" "$f"
done
cp -r /opt/lab/fixtures/eaimw/mq/claims /root/eaimw/mq/claims
./topology.py
./topology.py
