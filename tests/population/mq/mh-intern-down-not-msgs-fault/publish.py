#!/usr/bin/env python3
# publish.py <claim.json> - confirm + mandatory publish
import json
import os
import sys

import pika
from pika import exceptions


class ClaimPublisher:
    def __init__(self, url):
        self.conn = pika.BlockingConnection(pika.URLParameters(url))
        self.ch = self.conn.channel()
        self.ch.confirm_delivery()

    def publish(self, raw):
        claim = json.loads(raw)
        self.ch.basic_publish(
            exchange="eai.claim",
            routing_key="claim",
            body=raw,
            properties=pika.BasicProperties(
                content_type="application/json",
                delivery_mode=2,
                message_id=claim["guid"],
            ),
            mandatory=True,
        )
        return claim["guid"]

    def close(self):
        if self.conn.is_open:
            self.conn.close()


def main():
    if len(sys.argv) < 2:
        print("usage: publish.py CLAIM_JSON_FILE", file=sys.stderr)
        return 2
    raw = open(sys.argv[1], "rb").read()
    pub = ClaimPublisher(os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
    try:
        guid = pub.publish(raw)
    except exceptions.UnroutableError:
        print("unroutable (no queue bound for 'claim')", file=sys.stderr)
        return 1
    except exceptions.NackError:
        print("broker nack", file=sys.stderr)
        return 1
    finally:
        pub.close()
    print("published", guid)
    return 0


if __name__ == "__main__":
    sys.exit(main())
