mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > status.txt
grep -n "watermark" status.txt
cp "$SUBMISSION"/*.py /root/eaimw/mq/
python3 topology.py && python3 topology.py
python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/busy-1471.json
python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1469.json
