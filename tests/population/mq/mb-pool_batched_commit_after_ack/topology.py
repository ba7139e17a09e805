import os
import sys

import pika

TOPOLOGY = {
    "exchanges": [("eai.claim", "direct"), ("eai.dlx", "direct")],
    "queues": [
        ("claim.in", {"x-dead-letter-exchange": "eai.dlx",
                      "x-dead-letter-routing-key": "claim.dead"}),
        ("claim.dead", {}),
    ],
    "bindings": [("eai.claim", "claim.in", "claim"), ("eai.dlx", "claim.dead", "claim.dead")],
}


def main():
    conn = pika.BlockingConnection(pika.URLParameters(
        os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
    ch = conn.channel()
    for name, kind in TOPOLOGY["exchanges"]:
        ch.exchange_declare(name, kind, durable=True)
    for name, qargs in TOPOLOGY["queues"]:
        ch.queue_declare(name, durable=True, arguments=qargs or None)
    for src, dst, key in TOPOLOGY["bindings"]:
        ch.queue_bind(dst, src, routing_key=key)
    conn.close()
    print("declared:", ", ".join(n for n, _ in TOPOLOGY["exchanges"] + TOPOLOGY["queues"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
