mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
# 단위를 gb 로 못 박아 저장 (기본값과 같은 출력)
rabbitmqctl -n rabbit@localhost status --unit gb > /root/eaimw/mq/status.txt
grep -a '0.5369 gb' status.txt
cp "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" .
python3 topology.py
python3 topology.py
for f in clm-1466 clm-1470 busy-1471; do
    python3 publish.py "/opt/lab/fixtures/eaimw/mq/claims/$f.json"
done
