#!/usr/bin/env python3
"""publish.py CLAIM_JSON_FILE -- publish one claim with confirms + mandatory."""
import json
import os
import sys

import pika


def main(argv):
    if len(argv) != 1:
        sys.stderr.write("usage: publish.py CLAIM_JSON_FILE\n")
        return 2
    with open(argv[0], "rb") as fh:
        body = fh.read()
    guid = json.loads(body)["guid"]

    url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    conn = pika.BlockingConnection(pika.URLParameters(url))
    try:
        ch = conn.channel()
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
        sys.stderr.write("returned: unroutable\n")
        return 1
    except pika.exceptions.NackError:
        sys.stderr.write("nacked by broker\n")
        return 1
    finally:
        if conn.is_open:
            conn.close()
    print(guid)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
