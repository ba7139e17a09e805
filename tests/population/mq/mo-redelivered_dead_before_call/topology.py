#!/usr/bin/env python3
import os
import sys

import pika

AMQP = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main():
    conn = pika.BlockingConnection(pika.URLParameters(AMQP))
    ch = conn.channel()
    ch.exchange_declare("eai.claim", exchange_type="direct", durable=True)
    ch.exchange_declare("eai.dlx", exchange_type="direct", durable=True)
    ch.queue_declare("claim.in", durable=True, arguments={
        "x-dead-letter-exchange": "eai.dlx",
        "x-dead-letter-routing-key": "claim.dead",
    })
    ch.queue_declare("claim.dead", durable=True)
    ch.queue_bind("claim.in", "eai.claim", routing_key="claim")
    ch.queue_bind("claim.dead", "eai.dlx", routing_key="claim.dead")
    conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
