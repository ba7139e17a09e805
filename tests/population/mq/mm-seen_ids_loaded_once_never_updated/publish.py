"""python3 publish.py CLAIM.json -- confirmed, mandatory publish of one claim."""
import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def publish(path):
    with open(path, "rb") as fh:
        raw = fh.read()
    guid = json.loads(raw)["guid"]
    conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    try:
        ch = conn.channel()
        ch.confirm_delivery()
        ch.basic_publish(
            exchange="eai.claim",
            routing_key="claim",
            body=raw,
            properties=pika.BasicProperties(content_type="application/json",
                                            delivery_mode=2, message_id=guid),
            mandatory=True,
        )
    finally:
        conn.close()
    return guid


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    try:
        print("confirmed", publish(sys.argv[1]))
    except UnroutableError:
        sys.exit("unroutable: no queue bound for eai.claim/claim")
    except NackError:
        sys.exit("nacked by the broker")
