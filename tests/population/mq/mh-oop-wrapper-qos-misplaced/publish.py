#!/usr/bin/env python3
"""publish.py CLAIM_JSON_FILE"""
import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError

# --- ClaimBus: copied into each script so every script runs on its own ---
DEFAULT_URL = "amqp://guest:guest@127.0.0.1:5672/%2F"


class ClaimBus:
    EXCHANGE = "eai.claim"
    DLX = "eai.dlx"
    IN_QUEUE = "claim.in"
    DEAD_QUEUE = "claim.dead"

    def __init__(self, prefetch=None):
        self.url = os.environ.get("EAI_AMQP_URL", DEFAULT_URL)
        self.connection = pika.BlockingConnection(pika.URLParameters(self.url))
        if prefetch is not None:
            # QoS is a connection-level setting for the consumer: set it once, right after connecting
            self.connection.channel().basic_qos(prefetch_count=prefetch)

    def channel(self):
        return self.connection.channel()

    def close(self):
        if self.connection.is_open:
            self.connection.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
# --- end ClaimBus ---


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], "rb") as fh:
        payload = fh.read()
    guid = json.loads(payload)["guid"]
    with ClaimBus() as bus:
        ch = bus.channel()
        ch.confirm_delivery()
        try:
            ch.basic_publish(
                ClaimBus.EXCHANGE,
                "claim",
                payload,
                properties=pika.BasicProperties(
                    delivery_mode=2, message_id=guid, content_type="application/json"
                ),
                mandatory=True,
            )
        except UnroutableError:
            print("ERROR unroutable", file=sys.stderr)
            return 1
        except NackError:
            print("ERROR nacked", file=sys.stderr)
            return 1
    print("OK", guid)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
