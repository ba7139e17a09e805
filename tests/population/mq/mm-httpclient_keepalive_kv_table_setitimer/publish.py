#!/usr/bin/env python3
# publish.py FILE -- one claim into eai.claim/claim, confirmed.
# exit 0 = broker confirmed and routed; 3 = unroutable (returned); 4 = nacked; 2 = usage/bad file
import argparse
import json
import os
import sys

import pika
import pika.exceptions


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file", help="claim JSON file")
    a = ap.parse_args()

    try:
        with open(a.file, "rb") as f:
            body = f.read()
        guid = json.loads(body)["guid"]
    except (OSError, ValueError, KeyError) as e:
        sys.stderr.write("publish: cannot use %s: %r\n" % (a.file, e))
        return 2

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
        sys.stderr.write("publish: %s returned unroutable\n" % guid)
        return 3
    except pika.exceptions.NackError:
        sys.stderr.write("publish: %s nacked by broker\n" % guid)
        return 4
    finally:
        if conn.is_open:
            conn.close()
    sys.stdout.write("publish: %s confirmed\n" % guid)
    return 0


if __name__ == "__main__":
    sys.exit(main())
