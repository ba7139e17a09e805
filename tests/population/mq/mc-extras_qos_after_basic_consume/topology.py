"""Declares the claim topology, then verifies it passively. Safe to run again."""
import os
import sys

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DLX_ARGS = {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"}


def main():
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.exchange_declare("eai.claim", exchange_type="direct", durable=True)
    ch.exchange_declare("eai.dlx", exchange_type="direct", durable=True)
    ch.queue_declare("claim.in", durable=True, arguments=DLX_ARGS)
    ch.queue_declare("claim.dead", durable=True)
    ch.queue_bind("claim.in", "eai.claim", routing_key="claim")
    ch.queue_bind("claim.dead", "eai.dlx", routing_key="claim.dead")
    # verify
    for x in ("eai.claim", "eai.dlx"):
        ch.exchange_declare(x, passive=True)
    for q in ("claim.in", "claim.dead"):
        ok = ch.queue_declare(q, passive=True)
        print(f"{q}: {ok.method.message_count} ready, {ok.method.consumer_count} consumers")
    conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
