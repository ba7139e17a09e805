# shared bits for topology.py / publish.py / consumer.py
import os
import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

CLAIM_EXCHANGE = "eai.claim"
DEAD_EXCHANGE = "eai.dlx"
IN_QUEUE = "claim.in"
DEAD_QUEUE = "claim.dead"
IN_KEY = "claim"
DEAD_KEY = "claim.dead"


def connect():
    # one place to change if the broker moves
    return pika.BlockingConnection(pika.URLParameters(AMQP_URL))
