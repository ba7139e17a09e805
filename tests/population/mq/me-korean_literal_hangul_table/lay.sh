# the steps this student performed, in order
# 1단계 (브로커는 이미 떠 있음: rabbitmqctl -n rabbit@localhost status 가 답한다)
mkdir -p /root/eaimw/mq
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
grep "Memory high watermark" /root/eaimw/mq/status.txt
cp "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" /root/eaimw/mq/
cd /root/eaimw/mq
# 2단계: 두 번 돌려도 오류가 없어야 한다
python3 topology.py
python3 topology.py
# 3단계: 픽스처 청구 하나를 발행해 본다
python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1466.json
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
