#!/usr/bin/env python3
"""publish.py CLAIM.json -- publish a claim (confirm + mandatory)."""
import json
import os
import sys

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

# the claim files are UTF-8 (Korean names in them); say so, the consumer
# side should not have to guess the charset
CONTENT_TYPE = "application/json; charset=utf-8"


def publish(path):
    with open(path, "rb") as f:
        body = f.read()
    message_id = json.loads(body.decode("utf-8"))["guid"]

    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.confirm_delivery()
    try:
        ch.basic_publish(
            exchange="eai.claim",
            routing_key="claim",
            body=body,
            properties=pika.BasicProperties(
                content_type=CONTENT_TYPE,
                content_encoding="utf-8",
                delivery_mode=pika.spec.PERSISTENT_DELIVERY_MODE,
                message_id=message_id,
            ),
            mandatory=True,
        )
    finally:
        conn.close()
    return message_id


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(f"usage: {sys.argv[0]} CLAIM.json")
    try:
        mid = publish(sys.argv[1])
    except pika.exceptions.UnroutableError:
        sys.exit("publish failed: unroutable (no queue bound for 'claim')")
    except pika.exceptions.NackError:
        sys.exit("publish failed: broker nacked")
    print("published", mid)
