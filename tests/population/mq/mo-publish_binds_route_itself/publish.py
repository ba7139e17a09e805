#!/usr/bin/env python3
"""publish.py CLAIM.json -- one claim to eai.claim/claim, confirmed.

To be usable on a fresh vhost, it first makes sure claim.in is there and bound
(the exchange itself is expected to exist: topology.py makes it).
"""
import json
import os
import sys

import pika
from pika.exceptions import ChannelClosedByBroker, NackError, UnroutableError

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
CLAIM_IN_ARGS = {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"}


def ensure_route(conn):
    ch = conn.channel()
    try:
        ch.queue_declare("claim.in", passive=True)
    except ChannelClosedByBroker as e:
        if e.reply_code != 404:
            raise
        ch = conn.channel()
        ch.queue_declare("claim.in", durable=True, arguments=CLAIM_IN_ARGS)
    ch.queue_bind("claim.in", "eai.claim", routing_key="claim")
    return ch


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1], "rb") as f:
        body = f.read()
    guid = json.loads(body)["guid"]

    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = ensure_route(conn)
    ch.confirm_delivery()
    rc = 0
    try:
        ch.basic_publish(
            "eai.claim", "claim", body,
            pika.BasicProperties(delivery_mode=2, message_id=guid, content_type="application/json"),
            mandatory=True,
        )
        print(f"published {guid}")
    except UnroutableError:
        print("unroutable", file=sys.stderr)
        rc = 3
    except NackError:
        print("nacked", file=sys.stderr)
        rc = 4
    conn.close()
    return rc


if __name__ == "__main__":
    sys.exit(main())
