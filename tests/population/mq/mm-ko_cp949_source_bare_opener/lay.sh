#!/usr/bin/env bash
# 실습 순서대로 한 것
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq

# 1. 브로커 상태 (노드는 이미 떠 있음)
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
grep -i "high watermark" status.txt

# 파일 복사 (윈도우에서 메모장으로 작성 -> cp949 그대로)
cp "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" /root/eaimw/mq/

# 2. 토폴로지 두 번
python3 topology.py
python3 topology.py

# 3. 발행 한 건 해 보기
python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1466.json
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
