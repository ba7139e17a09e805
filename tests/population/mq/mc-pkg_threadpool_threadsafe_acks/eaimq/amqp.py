"""Broker side: connection and topology."""
import logging

import pika

from .config import DEAD_KEY, DEAD_QUEUE, DLX, EXCHANGE, KEY, QUEUE, settings

log = logging.getLogger(__name__)

TOPOLOGY = {
    "exchanges": [(EXCHANGE, "direct"), (DLX, "direct")],
    "queues": [
        (QUEUE, {"x-dead-letter-exchange": DLX, "x-dead-letter-routing-key": DEAD_KEY}),
        (DEAD_QUEUE, {}),
    ],
    "bindings": [(EXCHANGE, QUEUE, KEY), (DLX, DEAD_QUEUE, DEAD_KEY)],
}


def connect():
    return pika.BlockingConnection(pika.URLParameters(settings.amqp_url))


def declare(channel):
    for name, kind in TOPOLOGY["exchanges"]:
        channel.exchange_declare(exchange=name, exchange_type=kind, durable=True, auto_delete=False)
    for name, args in TOPOLOGY["queues"]:
        channel.queue_declare(queue=name, durable=True, arguments=args or None)
    for exchange, queue, key in TOPOLOGY["bindings"]:
        channel.queue_bind(queue=queue, exchange=exchange, routing_key=key)
    log.info("topology in place: %s", TOPOLOGY)
