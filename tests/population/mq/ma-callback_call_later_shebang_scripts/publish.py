#!/usr/bin/env python3
"""publish.py CLAIM_JSON_FILE -- publish one claim with publisher confirms + mandatory."""
import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main(argv):
    if len(argv) != 2:
        print("usage: publish.py CLAIM_JSON_FILE", file=sys.stderr)
        return 64
    with open(argv[1], "rb") as f:
        body = f.read()
    guid = json.loads(body)["guid"]

    props = pika.BasicProperties(
        content_type="application/json",
        delivery_mode=pika.DeliveryMode.Persistent,
        message_id=guid,
    )
    connection = pika.BlockingConnection(pika.URLParameters(URL))
    try:
        channel = connection.channel()
        channel.confirm_delivery()
        channel.basic_publish("eai.claim", "claim", body, props, mandatory=True)
    except UnroutableError:
        print(f"unroutable: {guid}", file=sys.stderr)
        return 2
    except NackError:
        print(f"nacked by broker: {guid}", file=sys.stderr)
        return 3
    finally:
        if connection.is_open:
            connection.close()
    print(f"confirmed {guid}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
