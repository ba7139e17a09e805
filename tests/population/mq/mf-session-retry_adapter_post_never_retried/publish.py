#!/usr/bin/env python3
import json
import os
import sys

import pika


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: publish.py CLAIM_JSON_FILE")
    with open(sys.argv[1], "rb") as f:
        body = f.read()
    guid = json.loads(body)["guid"]
    params = pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
    with pika.BlockingConnection(params) as conn:
        ch = conn.channel()
        ch.confirm_delivery()
        try:
            ch.basic_publish(
                exchange="eai.claim",
                routing_key="claim",
                body=body,
                properties=pika.BasicProperties(
                    content_type="application/json", delivery_mode=2, message_id=guid),
                mandatory=True,
            )
        except pika.exceptions.UnroutableError:
            sys.exit("not routed (returned by the broker)")
        except pika.exceptions.NackError:
            sys.exit("nacked by the broker")
    print("ok", guid)


if __name__ == "__main__":
    main()
