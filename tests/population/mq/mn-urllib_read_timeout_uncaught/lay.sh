mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
grep "Memory high watermark" status.txt
cp "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py .
python3 topology.py
python3 topology.py
python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1470.json
# 청구 시스템을 안 띄운 채로 소비자를 돌려 봤다: 연결 실패 -> 한 번 되돌리고 -> DLX
python3 consumer.py --claim http://127.0.0.1:9 --max-seconds 3
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
