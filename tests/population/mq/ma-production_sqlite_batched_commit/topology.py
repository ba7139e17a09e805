"""Idempotent declaration of the claim topology (exchanges, queues, DLX, bindings)."""
import logging
import os
import sys
import time

import pika
from pika.exceptions import AMQPConnectionError

logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
logging.getLogger("pika").setLevel(logging.WARNING)
log = logging.getLogger("topology")


def main() -> int:
    params = pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
    for attempt in range(5):
        try:
            conn = pika.BlockingConnection(params)
            break
        except AMQPConnectionError as exc:
            log.warning("connect failed: %s", exc)
            time.sleep(1 + attempt)
    else:
        return 1
    with conn:
        ch = conn.channel()
        ch.exchange_declare("eai.claim", "direct", durable=True)
        ch.exchange_declare("eai.dlx", "direct", durable=True)
        ch.queue_declare("claim.in", durable=True, arguments={
            "x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"})
        ch.queue_declare("claim.dead", durable=True)
        ch.queue_bind("claim.in", "eai.claim", "claim")
        ch.queue_bind("claim.dead", "eai.dlx", "claim.dead")
    log.info("topology declared")
    return 0


if __name__ == "__main__":
    sys.exit(main())
