#!/usr/bin/env python3
"""publish.py CLAIM_JSON -- one claim into eai.claim, confirmed and mandatory."""
import json
import os
import sys
import time

import pika

import claimmq


class ClaimPublisher:
    def __init__(self, conn):
        self.ch = conn.channel()
        self.ch.confirm_delivery()

    def publish(self, raw, source=""):
        claim = json.loads(raw)
        props = pika.BasicProperties(
            content_type="application/json",
            delivery_mode=pika.DeliveryMode.Persistent,
            message_id=claim["guid"],
            timestamp=int(time.time()),
            app_id="eaimw-publish",
            headers={"x-source-file": source},
        )
        # raises UnroutableError / NackError when the broker did not take it
        self.ch.basic_publish(claimmq.EXCHANGE, claimmq.ROUTING_KEY, raw,
                              properties=props, mandatory=True)
        return claim["guid"]


def main(argv):
    if len(argv) != 2:
        print(f"usage: {argv[0]} CLAIM_JSON", file=sys.stderr)
        return 2
    with open(argv[1], "rb") as f:
        raw = f.read()
    conn = claimmq.connect()
    try:
        guid = ClaimPublisher(conn).publish(raw, os.path.basename(argv[1]))
    except pika.exceptions.UnroutableError:
        print("unroutable: nothing bound to eai.claim/claim", file=sys.stderr)
        return 3
    except pika.exceptions.NackError:
        print("broker refused the message (nack)", file=sys.stderr)
        return 4
    finally:
        if conn.is_open:
            conn.close()
    print(f"published {guid}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
