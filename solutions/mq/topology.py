"""Step 2: declare the claim topology: two exchanges, two queues, dead-lettering, two bindings.

    python3 topology.py

Declaring is idempotent: declaring again with the same properties changes nothing, so the
script is safe to run twice. Declaring an existing name with different properties makes the
broker close the channel with 406 PRECONDITION_FAILED.
"""

from __future__ import annotations

import logging
import os
import sys

import pika
from pika.adapters.blocking_connection import BlockingChannel
from pika.exceptions import AMQPConnectionError, ChannelClosedByBroker

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
CLAIM_EXCHANGE = "eai.claim"
DEAD_LETTER_EXCHANGE = "eai.dlx"
CLAIM_QUEUE = "claim.in"
DEAD_QUEUE = "claim.dead"
CLAIM_KEY = "claim"
DEAD_KEY = "claim.dead"

log = logging.getLogger("topology")


def declare(channel: BlockingChannel) -> None:
    channel.exchange_declare(CLAIM_EXCHANGE, exchange_type="direct", durable=True)
    channel.exchange_declare(DEAD_LETTER_EXCHANGE, exchange_type="direct", durable=True)
    # The dead letter exchange is two queue arguments: a message rejected without requeue
    # leaves claim.in for eai.dlx, with its routing key replaced by claim.dead.
    channel.queue_declare(
        CLAIM_QUEUE,
        durable=True,
        arguments={
            "x-dead-letter-exchange": DEAD_LETTER_EXCHANGE,
            "x-dead-letter-routing-key": DEAD_KEY,
        },
    )
    channel.queue_declare(DEAD_QUEUE, durable=True)
    channel.queue_bind(CLAIM_QUEUE, CLAIM_EXCHANGE, routing_key=CLAIM_KEY)
    channel.queue_bind(DEAD_QUEUE, DEAD_LETTER_EXCHANGE, routing_key=DEAD_KEY)


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("pika").setLevel(logging.WARNING)  # pika is chatty at INFO
    try:
        connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    except AMQPConnectionError as exc:
        log.error("cannot connect to the broker: %r", exc)
        return 1
    try:
        declare(connection.channel())
    except ChannelClosedByBroker as exc:
        # 406: something of that name already exists with other properties.
        log.error("the broker refused a declaration: %s %s", exc.reply_code, exc.reply_text)
        return 1
    finally:
        if connection.is_open:
            connection.close()
    log.info(
        "declared %s, %s, %s, %s and their bindings",
        CLAIM_EXCHANGE,
        DEAD_LETTER_EXCHANGE,
        CLAIM_QUEUE,
        DEAD_QUEUE,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
