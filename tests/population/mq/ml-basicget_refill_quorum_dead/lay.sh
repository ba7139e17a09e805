# what I did in the pod, in order
mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
# step 1: the broker is up (mq-up.sh); keep its status, and look at it while saving
rabbitmqctl --node=rabbit@localhost status | tee /root/eaimw/mq/status.txt
grep -a 'Memory high watermark' /root/eaimw/mq/status.txt
cp "$SUBMISSION/topology.py" "$SUBMISSION/publish.py" "$SUBMISSION/consumer.py" /root/eaimw/mq/
# step 2: twice, to see it is idempotent
python3 topology.py
python3 topology.py
# step 3: one claim in, looked at, left for the consumer
python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1466.json
rabbitmqctl -n rabbit@localhost list_queues name messages messages_unacknowledged
