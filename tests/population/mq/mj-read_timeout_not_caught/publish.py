#!/usr/bin/env python3
"""publish.py CLAIM.json -> eai.claim / claim, with confirms + mandatory"""
import json
import os
import sys

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main():
    if len(sys.argv) != 2:
        print("usage: publish.py CLAIM.json", file=sys.stderr)
        return 2
    with open(sys.argv[1], "rb") as f:
        raw = f.read()
    claim = json.loads(raw)

    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.confirm_delivery()
    props = pika.BasicProperties(
        delivery_mode=2,
        message_id=claim["guid"],
        content_type="application/json",
    )
    try:
        ch.basic_publish(exchange="eai.claim", routing_key="claim", body=raw,
                         properties=props, mandatory=True)
    except pika.exceptions.UnroutableError:
        print("unroutable: nothing bound for 'claim' on eai.claim", file=sys.stderr)
        return 1
    except pika.exceptions.NackError:
        print("broker nacked the message", file=sys.stderr)
        return 1
    finally:
        if conn.is_open:
            conn.close()
    print("published", claim["guid"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
