#!/usr/bin/env python3
# publish.py FILE - one claim, confirmed, mandatory
import json
import os
import sys

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main(path):
    raw = open(path, "rb").read()
    claim = json.loads(raw)
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.confirm_delivery()
    try:
        ch.basic_publish(
            exchange="eai.claim",
            routing_key="claim",
            body=raw,
            properties=pika.BasicProperties(
                delivery_mode=2,
                message_id=claim["guid"],
                content_type="application/json",
            ),
            mandatory=True,
        )
    except pika.exceptions.UnroutableError:
        print("unroutable", file=sys.stderr)
        return 1
    except pika.exceptions.NackError:
        print("broker nacked", file=sys.stderr)
        return 1
    finally:
        if conn.is_open:
            conn.close()
    print("confirmed", claim["guid"])
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: publish.py CLAIM.json")
    sys.exit(main(sys.argv[1]))
