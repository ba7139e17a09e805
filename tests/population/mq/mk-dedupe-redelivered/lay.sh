#!/usr/bin/env bash
# 1단계: 상태 기록
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq || exit 1
rabbitmqctl -n rabbit@localhost status > status.txt
grep "Memory high watermark" status.txt
# 2~8단계: 스크립트 배치
cp "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py "$SUBMISSION"/NOTES.md .
python3 topology.py && python3 topology.py
python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1467.json
echo "publish exit=$?"
# claim.in 에 메시지가 쌓였는지 확인 (passive declare)
python3 - <<'PY'
import os, pika
c = pika.BlockingConnection(pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
print(c.channel().queue_declare("claim.in", passive=True).method.message_count, "message(s) in claim.in")
c.close()
PY
