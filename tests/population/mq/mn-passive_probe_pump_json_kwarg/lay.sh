mkdir -p ~/eaimw/mq && cd ~/eaimw/mq
rabbitmqctl --node rabbit@localhost status > status.txt
cat status.txt | grep -i watermark
cp $SUBMISSION/*.py .
python3 topology.py
python3 topology.py
python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1470.json; echo "publish exit $?"
