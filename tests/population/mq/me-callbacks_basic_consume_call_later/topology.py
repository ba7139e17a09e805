"""Declare the claim topology. Re-declaring with the same attributes is a no-op, so run it as often as you like."""
import os

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

EXCHANGES = [("eai.claim", "direct"), ("eai.dlx", "direct")]
QUEUES = {
    "claim.in": {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"},
    "claim.dead": None,
}
BINDINGS = [("claim.in", "eai.claim", "claim"), ("claim.dead", "eai.dlx", "claim.dead")]


def on_declared(what):
    print("declared", what)


def main():
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    for name, kind in EXCHANGES:
        ch.exchange_declare(exchange=name, exchange_type=kind, durable=True)
        on_declared("exchange " + name)
    for name, args in QUEUES.items():
        ch.queue_declare(queue=name, durable=True, arguments=args)
        on_declared("queue " + name)
    for queue, exchange, key in BINDINGS:
        ch.queue_bind(queue=queue, exchange=exchange, routing_key=key)
        on_declared("binding %s -> %s (%s)" % (exchange, queue, key))
    conn.close()


if __name__ == "__main__":
    main()
