set -eu
dest=/root/eaimw/mq
mkdir -p "$dest"
rabbitmqctl -n rabbit@localhost status > "$dest/status.txt"
cp "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" "$dest/"
chmod 755 "$dest"/*.py
"$dest/topology.py"
