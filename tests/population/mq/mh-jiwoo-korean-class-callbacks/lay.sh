#!/usr/bin/env bash
# 지우가 한 순서 그대로
set -e
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
# 1. 브로커는 이미 떠 있음 -> 상태 저장 (화면으로도 보려고 tee)
rabbitmqctl -n rabbit@localhost status | tee /root/eaimw/mq/status.txt
grep -i "memory high watermark" status.txt
# 2~8. 스크립트 복사
cp "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" /root/eaimw/mq/
chmod +x /root/eaimw/mq/*.py
