mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
cp $SUBMISSION/topology.py $SUBMISSION/publish.py $SUBMISSION/consumer.py .
chmod +x *.py
rabbitmqctl -n rabbit@localhost status > status.txt
./topology.py
./topology.py
./publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1470.json
