#!/usr/bin/env python3
"""Step 2. Probe first (passive declare), declare only what is missing.

A passive declare of a missing object makes the broker close the channel with 404, so a new
channel is opened after each miss. Bindings are declared every time (queue_bind is idempotent).
"""
import os
import sys

import pika
from pika.exceptions import ChannelClosedByBroker

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DLX_ARGS = {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"}


def main():
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()

    for name in ("eai.claim", "eai.dlx"):
        try:
            ch.exchange_declare(name, passive=True)
            print(f"exchange {name}: exists")
        except ChannelClosedByBroker as exc:
            if exc.reply_code != 404:
                raise
            ch = conn.channel()
            ch.exchange_declare(name, exchange_type="direct", durable=True)
            print(f"exchange {name}: declared")

    for name, args in (("claim.in", DLX_ARGS), ("claim.dead", None)):
        try:
            ok = ch.queue_declare(name, passive=True)
            print(f"queue {name}: exists ({ok.method.message_count} waiting, left alone)")
        except ChannelClosedByBroker as exc:
            if exc.reply_code != 404:
                raise
            ch = conn.channel()
            ch.queue_declare(name, durable=True, arguments=args)
            print(f"queue {name}: declared")

    ch.queue_bind("claim.in", "eai.claim", routing_key="claim")
    ch.queue_bind("claim.dead", "eai.dlx", routing_key="claim.dead")
    print("bindings ok")
    conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
