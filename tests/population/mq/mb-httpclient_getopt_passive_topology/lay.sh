#!/bin/bash
mkdir -p ~/eaimw/mq
cd ~/eaimw/mq
rabbitmqctl -n rabbit@localhost status > status.txt
install -m 755 "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py .
python3 topology.py
