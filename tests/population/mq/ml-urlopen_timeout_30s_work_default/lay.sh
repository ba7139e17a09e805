mkdir -p /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status --timeout 30 > /root/eaimw/mq/status.txt
cp "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" /root/eaimw/mq/
cd /root/eaimw/mq
python3 topology.py; echo "topology rc=$?"
python3 topology.py; echo "topology rc=$?"
python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1469.json; echo "publish rc=$?"
