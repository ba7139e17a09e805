#!/usr/bin/env bash
# silseup sunseo (실습 순서)
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
# 1. beurokeo sangtae (mq-up.sh 는 이미 떠 있다고 나옴)
rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt
grep "Memory high watermark" /root/eaimw/mq/status.txt
cp "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" /root/eaimw/mq/
# 2. du beon
python3 topology.py
python3 topology.py
# cheonggu siseutem
nohup python3 /opt/lab/fixtures/eaimw/partner.py claim > /root/eaimw/mq/claim.out 2>&1 &
pateuneo=$!
sleep 1
# 3.
for f in /opt/lab/fixtures/eaimw/mq/claims/*.json; do
    python3 publish.py "$f"
done
# 4-8. gateun clm-1467 eul han beon deo (같은 메시지 한 번 더) -> 같은 실행 안에서 걸러지는지
python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1467.json
python3 consumer.py --claim http://127.0.0.1:9202 --max-seconds 6
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
curl -s http://127.0.0.1:9202/_stats | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["by_guid"]); print(d["by_status"])'
kill $pateuneo
