#!/usr/bin/env python3
"""publish.py CLAIM.json

Sends one claim to eai.claim with routing key 'claim' (persistent, message_id = guid,
content_type application/json), publisher confirms on and mandatory=True.
Exit 0 = broker confirmed it, 1 = unroutable or nacked, 2 = bad usage / bad file.
"""
import json
import os
import sys

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DLX_ARGS = {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"}


def ensure_route(ch):
    """Make sure there is somewhere for the claim to go, with exactly the same properties
    as topology.py (so nothing 406s): declaring is idempotent, the lab says so."""
    ch.exchange_declare("eai.claim", exchange_type="direct", durable=True)
    ch.exchange_declare("eai.dlx", exchange_type="direct", durable=True)
    ch.queue_declare("claim.in", durable=True, arguments=DLX_ARGS)
    ch.queue_declare("claim.dead", durable=True)
    ch.queue_bind("claim.in", "eai.claim", routing_key="claim")
    ch.queue_bind("claim.dead", "eai.dlx", routing_key="claim.dead")


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        with open(argv[1], "rb") as fh:
            body = fh.read()
        guid = json.loads(body)["guid"]
    except (OSError, ValueError, KeyError) as exc:
        print(f"cannot read claim {argv[1]}: {exc}", file=sys.stderr)
        return 2

    conn = pika.BlockingConnection(pika.URLParameters(URL))
    try:
        ch = conn.channel()
        ensure_route(ch)
        ch.confirm_delivery()
        ch.basic_publish(
            exchange="eai.claim",
            routing_key="claim",
            body=body,
            properties=pika.BasicProperties(
                delivery_mode=pika.DeliveryMode.Persistent,
                message_id=guid,
                content_type="application/json",
            ),
            mandatory=True,
        )
    except pika.exceptions.UnroutableError:
        print(f"{guid}: unroutable", file=sys.stderr)
        return 1
    except pika.exceptions.NackError:
        print(f"{guid}: nacked by the broker", file=sys.stderr)
        return 1
    finally:
        if conn.is_open:
            conn.close()
    print(f"{guid}: confirmed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
