"""topology.py: look before you declare.

Every object is first probed with a passive declare on a throw-away channel
(a 404 closes only that channel); only what is missing gets declared.
Bindings are always (re)done - binding twice is a no-op.
"""
import os
import sys

import pika
from pika.exceptions import ChannelClosedByBroker

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

WANTED_EXCHANGES = {"eai.claim": "direct", "eai.dlx": "direct"}
WANTED_QUEUES = {
    "claim.in": {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"},
    "claim.dead": {},
}
WANTED_BINDINGS = [("eai.claim", "claim.in", "claim"), ("eai.dlx", "claim.dead", "claim.dead")]


def present(conn, kind, name):
    probe = conn.channel()
    try:
        if kind == "exchange":
            probe.exchange_declare(exchange=name, passive=True)
        else:
            probe.queue_declare(queue=name, passive=True)
    except ChannelClosedByBroker as exc:
        if exc.reply_code == 404:
            return False
        raise
    probe.close()
    return True


def main():
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    for name, kind in WANTED_EXCHANGES.items():
        if present(conn, "exchange", name):
            print("exchange %-10s already there" % name)
        else:
            ch.exchange_declare(exchange=name, exchange_type=kind, durable=True)
            print("exchange %-10s declared" % name)
    for name, args in WANTED_QUEUES.items():
        if present(conn, "queue", name):
            print("queue    %-10s already there" % name)
        else:
            ch.queue_declare(queue=name, durable=True, arguments=args or None)
            print("queue    %-10s declared" % name)
    for exchange, queue, key in WANTED_BINDINGS:
        ch.queue_bind(queue=queue, exchange=exchange, routing_key=key)
        print("binding  %s -> %s (%s)" % (exchange, queue, key))
    conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
