set -eu
MQ=/root/eaimw/mq
mkdir -p "$MQ"
rabbitmqctl -n rabbit@localhost status > "$MQ/status.txt"
for f in topology.py publish.py consumer.py; do
    install -m 0755 "$SUBMISSION/$f" "$MQ/$f"
done
"$MQ/topology.py" --verify
