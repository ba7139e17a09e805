mkdir -p /root/eaimw/mq && cd /root/eaimw/mq
exec 3>/root/eaimw/mq/status.txt
rabbitmqctl -n rabbit@localhost status >&3
exec 3>&-
grep -a watermark status.txt
cp "$SUBMISSION"/*.py /root/eaimw/mq/
chmod +x topology.py publish.py consumer.py
./topology.py
./topology.py
./publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1467.json
./publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1470.json
