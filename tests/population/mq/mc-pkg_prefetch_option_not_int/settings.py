import os

AMQP_URL = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.getenv("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
PREFETCH = int(os.getenv("EAI_PREFETCH", "5"))
CLAIM_TIMEOUT = float(os.getenv("EAI_CLAIM_TIMEOUT", "3"))
IDLE_POLL = 0.5

EXCHANGE = "eai.claim"
DLX = "eai.dlx"
IN_QUEUE = "claim.in"
DEAD_QUEUE = "claim.dead"
ROUTING_KEY = "claim"
DEAD_KEY = "claim.dead"
