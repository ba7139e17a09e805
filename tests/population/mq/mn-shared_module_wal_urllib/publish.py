#!/usr/bin/env python3
"""publish.py CLAIM.json -> eai.claim/claim, confirmed and mandatory."""
import json
import sys

import pika

import mqcommon as mq


def main(path):
    with open(path, "rb") as f:
        body = f.read()
    claim = json.loads(body.decode("utf-8-sig"))
    props = pika.BasicProperties(content_type="application/json", delivery_mode=2,
                                 message_id=claim["guid"])
    with mq.connect() as conn:
        ch = conn.channel()
        ch.confirm_delivery()
        try:
            ch.basic_publish(mq.EXCHANGE, mq.ROUTING_KEY, body, props, mandatory=True)
        except pika.exceptions.UnroutableError:
            return "unroutable: no queue bound to %s with key %s" % (mq.EXCHANGE, mq.ROUTING_KEY)
        except pika.exceptions.NackError:
            return "nacked by the broker"
    print("confirmed", claim["guid"])
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: publish.py CLAIM_JSON_FILE")
    sys.exit(main(sys.argv[1]))   # a string -> printed to stderr, exit status 1
