"""Declare the claim topology.

Exchanges are checked passively and declared when missing. Queues are always (re)created
from the table below: a passive declare cannot see a queue's arguments and declaring over
a queue with other arguments ends in 406 PRECONDITION_FAILED, so an existing queue is
deleted and declared again with exactly these arguments."""
import os

import pika
from pika.exceptions import ChannelClosedByBroker

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

EXCHANGES = [("eai.claim", "direct"), ("eai.dlx", "direct")]
QUEUES = [
    ("claim.in", {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"}),
    ("claim.dead", None),
    ("claim.audit", {"x-max-length": 1000}),  # extra: last 1000 claims, for looking around
]
BINDINGS = [
    ("eai.claim", "claim.in", "claim"),
    ("eai.dlx", "claim.dead", "claim.dead"),
    ("eai.claim", "claim.audit", "claim.audit"),
]


def exists(conn, ch, kind, name):
    try:
        if kind == "exchange":
            ch.exchange_declare(name, passive=True)
        else:
            ch.queue_declare(name, passive=True)
        return True, ch
    except ChannelClosedByBroker as e:
        if e.reply_code != 404:
            raise
        return False, conn.channel()


def main():
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    for name, kind in EXCHANGES:
        found, ch = exists(conn, ch, "exchange", name)
        if not found:
            ch.exchange_declare(name, kind, durable=True)
        print(f"exchange {name}: {'ok' if found else 'created'}")
    for name, args in QUEUES:
        found, ch = exists(conn, ch, "queue", name)
        if found:
            ch.queue_delete(name)
        ch.queue_declare(name, durable=True, arguments=args)
        print(f"queue {name}: {'recreated' if found else 'created'} {args or ''}")
    for exchange, queue, key in BINDINGS:
        ch.queue_bind(queue, exchange, routing_key=key)
        print(f"binding {exchange} -[{key}]-> {queue}")
    conn.close()


if __name__ == "__main__":
    main()
