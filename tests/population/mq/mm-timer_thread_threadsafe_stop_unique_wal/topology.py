import os

import pika

EXCHANGES = [
    # name, type
    ("eai.claim", "direct"),
    ("eai.dlx", "direct"),
]
QUEUES = [
    # name, arguments
    ("claim.in", {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"}),
    ("claim.dead", None),
]
BINDINGS = [
    # exchange, queue, routing key
    ("eai.claim", "claim.in", "claim"),
    ("eai.dlx", "claim.dead", "claim.dead"),
]


def declare_all(channel):
    for name, kind in EXCHANGES:
        channel.exchange_declare(exchange=name, exchange_type=kind, durable=True)
        print("exchange", name, kind)
    for name, arguments in QUEUES:
        channel.queue_declare(queue=name, durable=True, arguments=arguments)
        print("queue", name, arguments or "")
    for exchange, queue, key in BINDINGS:
        channel.queue_bind(queue=queue, exchange=exchange, routing_key=key)
        print("binding", exchange, "->", queue, "key", key)


if __name__ == "__main__":
    url = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    connection = pika.BlockingConnection(pika.URLParameters(url))
    try:
        declare_all(connection.channel())
    finally:
        connection.close()
