D=/root/eaimw/mq
mkdir -p $D
rabbitmqctl -n rabbit@localhost status > $D/status.txt
for f in topology.py publish.py consumer.py; do cp "$SUBMISSION/$f" $D/; chmod +x $D/$f; done
$D/topology.py
$D/topology.py
$D/publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1468.json
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
