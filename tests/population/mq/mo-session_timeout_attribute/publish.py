#!/usr/bin/env python3
import json
import os
import sys

import pika


def main(path):
    with open(path, "rb") as f:
        payload = f.read()
    guid = json.loads(payload)["guid"]
    url = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    conn = pika.BlockingConnection(pika.URLParameters(url))
    ch = conn.channel()
    ch.confirm_delivery()
    try:
        ch.basic_publish(exchange="eai.claim", routing_key="claim", body=payload,
                         properties=pika.BasicProperties(delivery_mode=2, message_id=guid,
                                                         content_type="application/json"),
                         mandatory=True)
    except pika.exceptions.UnroutableError:
        print("ERROR: unroutable", file=sys.stderr)
        return 1
    except pika.exceptions.NackError:
        print("ERROR: nacked", file=sys.stderr)
        return 1
    finally:
        conn.close()
    print("sent", guid)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: publish.py FILE")
    sys.exit(main(sys.argv[1]))
