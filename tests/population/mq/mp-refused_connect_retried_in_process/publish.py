#!/usr/bin/env python3
"""Step 3: publish one claim file to eai.claim with publisher confirms."""
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
    props = pika.BasicProperties(
        delivery_mode=2,
        message_id=claim["guid"],
        content_type="application/json",
    )
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    try:
        ch = conn.channel()
        ch.confirm_delivery()
        ch.basic_publish("eai.claim", "claim", raw, props, mandatory=True)
    except pika.exceptions.UnroutableError:
        print("unroutable: nothing bound for 'claim'", file=sys.stderr)
        return 1
    except pika.exceptions.NackError:
        print("broker refused the message (nack)", file=sys.stderr)
        return 1
    finally:
        if conn.is_open:
            conn.close()
    print("published", claim["guid"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
