"""Settings for the mq lab scripts, all read from the environment once."""
import os

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

EXCHANGE = "eai.claim"
DLX = "eai.dlx"
QUEUE = "claim.in"
DEAD_QUEUE = "claim.dead"
ROUTING_KEY = "claim"
DEAD_ROUTING_KEY = "claim.dead"

DEFAULT_PREFETCH = 5
HTTP_TIMEOUT = float(os.environ.get("EAI_CLAIM_TIMEOUT", "4"))
LOG_LEVEL = os.environ.get("EAI_LOG_LEVEL", "INFO")
