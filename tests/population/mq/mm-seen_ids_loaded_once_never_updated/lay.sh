mkdir -p /root/eaimw/mq
cp "$SUBMISSION"/{topology,publish,consumer}.py /root/eaimw/mq/
cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > status.txt
python3 topology.py
python3 topology.py
python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1467.json
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
