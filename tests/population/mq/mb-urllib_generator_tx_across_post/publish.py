#!/usr/bin/env python3
"""publish.py CLAIM_JSON_FILE -- publish one claim to eai.claim with confirms."""
import json
import os
import sys

import pika
import pika.exceptions

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main(argv):
    if len(argv) != 2:
        print("usage: publish.py CLAIM_JSON_FILE", file=sys.stderr)
        return 2
    with open(argv[1], "rb") as f:
        raw = f.read()
    claim = json.loads(raw)
    guid = claim["guid"]

    props = pika.BasicProperties(
        delivery_mode=2,
        message_id=guid,
        content_type="application/json",
    )
    conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    try:
        ch = conn.channel()
        ch.confirm_delivery()
        try:
            ch.basic_publish(exchange="eai.claim", routing_key="claim",
                             body=raw, properties=props, mandatory=True)
        except pika.exceptions.UnroutableError:
            print("unroutable:", guid, file=sys.stderr)
            return 1
        except pika.exceptions.NackError:
            print("nacked by broker:", guid, file=sys.stderr)
            return 1
    finally:
        if conn.is_open:
            conn.close()
    print("confirmed", guid)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
