#!/usr/bin/env python3
import argparse
import json
import os
import sys

import pika


def publish_confirmed(url, body, guid):
    """True only when the broker routed the message and confirmed it."""
    conn = pika.BlockingConnection(pika.URLParameters(url))
    try:
        ch = conn.channel()
        ch.confirm_delivery()
        ch.basic_publish(
            exchange="eai.claim",
            routing_key="claim",
            body=body,
            properties=pika.BasicProperties(content_type="application/json",
                                            delivery_mode=2,
                                            message_id=guid),
            mandatory=True,
        )
        return True
    except pika.exceptions.UnroutableError:
        print("publish failed: no queue bound for eai.claim/claim", file=sys.stderr)
        return False
    except pika.exceptions.NackError:
        print("publish failed: broker nacked it", file=sys.stderr)
        return False
    finally:
        if conn.is_open:
            conn.close()


def main():
    ap = argparse.ArgumentParser(description="publish one claim JSON file to eai.claim")
    ap.add_argument("file")
    args = ap.parse_args()
    with open(args.file, "rb") as f:
        body = f.read()
    guid = json.loads(body)["guid"]
    url = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    if not publish_confirmed(url, body, guid):
        return 1
    print("ok", guid)
    return 0


if __name__ == "__main__":
    sys.exit(main())
