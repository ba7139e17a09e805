"""Configuration from the environment."""
import os

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
MQ_DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
HTTP_TIMEOUT = float(os.environ.get("EAI_HTTP_TIMEOUT", "4"))

CLAIM_EXCHANGE = "eai.claim"
DEAD_EXCHANGE = "eai.dlx"
CLAIM_QUEUE = "claim.in"
DEAD_QUEUE = "claim.dead"
CLAIM_KEY = "claim"
DEAD_KEY = "claim.dead"
