set -e
mkdir -p ~/eaimw/mq
cd ~/eaimw/mq
rabbitmqctl -n rabbit@localhost status > status.txt
cp "$SUBMISSION"/*.py .
python3 topology.py
python3 topology.py
