#!/usr/bin/env python3
import json
import os
import sys

import pika

AMQP = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main():
    if len(sys.argv) != 2:
        print("usage: publish.py CLAIM.json", file=sys.stderr)
        return 2
    raw = open(sys.argv[1], "rb").read()
    guid = json.loads(raw)["guid"]
    conn = pika.BlockingConnection(pika.URLParameters(AMQP))
    ch = conn.channel()
    ch.confirm_delivery()
    try:
        ch.basic_publish("eai.claim", "claim", raw,
                         pika.BasicProperties(delivery_mode=2, message_id=guid,
                                              content_type="application/json"),
                         mandatory=True)
    except (pika.exceptions.UnroutableError, pika.exceptions.NackError) as e:
        print(f"not published: {type(e).__name__}", file=sys.stderr)
        return 1
    finally:
        conn.close()
    print("published", guid)
    return 0


if __name__ == "__main__":
    sys.exit(main())
