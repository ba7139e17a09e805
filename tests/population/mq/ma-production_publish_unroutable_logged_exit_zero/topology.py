"""Declare the claim topology; safe to run any number of times."""
import logging
import os
import sys
from dataclasses import dataclass

import pika

log = logging.getLogger("topology")


@dataclass(frozen=True)
class Spec:
    claim_exchange: str = "eai.claim"
    dlx: str = "eai.dlx"
    inbound: str = "claim.in"
    dead: str = "claim.dead"
    inbound_key: str = "claim"
    dead_key: str = "claim.dead"


def declare(ch, s: Spec) -> None:
    ch.exchange_declare(s.claim_exchange, exchange_type="direct", durable=True)
    ch.exchange_declare(s.dlx, exchange_type="direct", durable=True)
    ch.queue_declare(s.inbound, durable=True,
                     arguments={"x-dead-letter-exchange": s.dlx, "x-dead-letter-routing-key": s.dead_key})
    ch.queue_declare(s.dead, durable=True)
    ch.queue_bind(s.inbound, s.claim_exchange, routing_key=s.inbound_key)
    ch.queue_bind(s.dead, s.dlx, routing_key=s.dead_key)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s %(message)s")
    conn = pika.BlockingConnection(pika.URLParameters(
        os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
    try:
        declare(conn.channel(), Spec())
    finally:
        conn.close()
    log.info("topology ok")
    sys.exit(0)
