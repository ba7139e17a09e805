#!/usr/bin/env python3
"""publish.py CLAIM.json"""
import json
import os
import sys

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main(argv):
    if len(argv) != 2:
        print("usage: publish.py CLAIM.json", file=sys.stderr)
        return 2
    with open(argv[1], "rb") as fh:
        payload = fh.read()
    guid = json.loads(payload)["guid"]

    conn = pika.BlockingConnection(pika.URLParameters(URL))
    try:
        ch = conn.channel()
        ch.confirm_delivery()
        ch.basic_publish(
            exchange="eai.claim",
            routing_key="claim",
            body=payload,
            properties=pika.BasicProperties(
                delivery_mode=2,
                content_type="application/json",
                message_id=guid,
            ),
            mandatory=True,
        )
    except pika.exceptions.UnroutableError as e:
        print(f"unroutable: {e}", file=sys.stderr)
        return 1
    except pika.exceptions.NackError as e:
        print(f"nacked by broker: {e}", file=sys.stderr)
        return 1
    finally:
        if conn.is_open:
            conn.close()
    print(f"ok {guid}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
