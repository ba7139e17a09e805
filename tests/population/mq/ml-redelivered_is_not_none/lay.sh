mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > status.txt.tmp && mv status.txt.tmp status.txt
cp "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py .
python3 topology.py && python3 topology.py
python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1466.json
