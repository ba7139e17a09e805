#!/usr/bin/env python3
"""publish.py CLAIM_JSON_FILE"""
import json
import sys
from pathlib import Path

import pika

from mqkit import Broker


class ClaimPublisher:
    def __init__(self, channel):
        self.ch = channel
        self.ch.confirm_delivery()

    def publish(self, raw: bytes) -> None:
        props = pika.BasicProperties(
            content_type="application/json",
            delivery_mode=2,
            message_id=json.loads(raw)["guid"],
        )
        self.ch.basic_publish("eai.claim", "claim", raw, properties=props, mandatory=True)


def main(argv) -> int:
    if len(argv) != 2:
        print("usage: publish.py CLAIM_JSON_FILE", file=sys.stderr)
        return 2
    raw = Path(argv[1]).read_bytes()
    try:
        with Broker() as ch:
            ClaimPublisher(ch).publish(raw)
    except pika.exceptions.UnroutableError:
        print("unroutable: no queue bound for 'claim' on eai.claim", file=sys.stderr)
        return 3
    except pika.exceptions.NackError:
        print("the broker refused the message (nack)", file=sys.stderr)
        return 4
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
