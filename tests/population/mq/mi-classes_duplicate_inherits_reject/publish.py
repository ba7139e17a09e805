#!/usr/bin/env python3
import json
import sys

import pika

from common import AmqpScript


class ClaimPublisher(AmqpScript):
    EXCHANGE = "eai.claim"
    ROUTING_KEY = "claim"

    def publish(self, body: bytes, guid: str) -> int:
        self.channel.confirm_delivery()
        try:
            self.channel.basic_publish(
                exchange=self.EXCHANGE,
                routing_key=self.ROUTING_KEY,
                body=body,
                properties=pika.BasicProperties(
                    delivery_mode=2, message_id=guid, content_type="application/json"),
                mandatory=True,
            )
        except pika.exceptions.UnroutableError:
            print("not routed (no queue bound)", file=sys.stderr)
            return 1
        except pika.exceptions.NackError:
            print("nacked by broker", file=sys.stderr)
            return 1
        print("published", guid)
        return 0


def main(argv):
    if len(argv) != 2:
        print("usage: publish.py CLAIM.json", file=sys.stderr)
        return 2
    with open(argv[1], "rb") as fh:
        body = fh.read()
    guid = json.loads(body)["guid"]
    with ClaimPublisher() as pub:
        return pub.publish(body, guid)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
