mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
# -q: just the status itself, no "Status of node ..." banner (the node name is in it anyway)
rabbitmqctl -n rabbit@localhost -q status > status.txt
grep -a -e 'Node name' -e 'Memory high watermark' status.txt
# I edit on Windows (VS Code, CRLF); python does not mind
cp "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py .
file *.py
python3 topology.py
python3 topology.py
python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1468.json
