#!/usr/bin/env python3
# topology.py -- exchanges, queues, DLX for the claim pipeline.
# re-running is harmless: same name + same properties = no-op on the broker.
import os
import sys

import pika

CLAIM_X, DLX = "eai.claim", "eai.dlx"
IN_Q, DEAD_Q = "claim.in", "claim.dead"
IN_KEY, DEAD_KEY = "claim", "claim.dead"


def main():
    url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    conn = pika.BlockingConnection(pika.URLParameters(url))
    ch = conn.channel()
    for x in (CLAIM_X, DLX):
        ch.exchange_declare(x, "direct", durable=True)
    ch.queue_declare(IN_Q, durable=True, arguments={
        "x-dead-letter-exchange": DLX,
        "x-dead-letter-routing-key": DEAD_KEY,
    })
    ch.queue_declare(DEAD_Q, durable=True)
    ch.queue_bind(IN_Q, CLAIM_X, routing_key=IN_KEY)
    ch.queue_bind(DEAD_Q, DLX, routing_key=DEAD_KEY)
    conn.close()
    sys.stdout.write("declared %s %s %s %s\n" % (CLAIM_X, DLX, IN_Q, DEAD_Q))


if __name__ == "__main__":
    main()
