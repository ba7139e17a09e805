mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
cp "$SUBMISSION"/claimq.py "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py .
chmod +x claimq.py
rabbitmqctl -n rabbit@localhost status > status.txt
python3 claimq.py topology
python3 topology.py
python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1467.json; echo "publish exit $?"
