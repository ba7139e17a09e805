#!/usr/bin/env python3
"""Step 3: python3 publish.py claim.json"""
import json
import os
import sys

import pika
from pika.exceptions import AMQPChannelError, NackError, UnroutableError


def main(argv):
    if len(argv) != 2:
        print("usage: publish.py <claim.json>", file=sys.stderr)
        return 64
    with open(argv[1], "rb") as fh:
        body = fh.read()
    try:
        guid = json.loads(body)["guid"]
    except (ValueError, KeyError, TypeError):
        print(f"{argv[1]}: not a claim with a guid", file=sys.stderr)
        return 65

    params = pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
    with pika.BlockingConnection(params) as conn:
        ch = conn.channel()
        ch.confirm_delivery()
        props = pika.BasicProperties(delivery_mode=2, message_id=guid, content_type="application/json")
        try:
            ch.basic_publish("eai.claim", "claim", body, props, mandatory=True)
        except (UnroutableError, NackError) as exc:
            kind = "unroutable" if isinstance(exc, UnroutableError) else "nacked"
            print(f"{guid}: {kind}, not queued: {exc!r}", file=sys.stderr)
            return 1
        except AMQPChannelError as exc:  # e.g. 404 no exchange eai.claim
            print(f"{guid}: channel error: {exc!r}", file=sys.stderr)
            return 1
    print(f"{guid}: confirmed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
