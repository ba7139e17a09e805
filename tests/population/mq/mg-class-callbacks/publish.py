"""publish.py CLAIM_JSON_FILE -- publishes one claim with publisher confirms."""
import json
import os
import sys

import pika


class ClaimPublisher:
    EXCHANGE = "eai.claim"
    ROUTING_KEY = "claim"

    def __init__(self, url):
        self.connection = pika.BlockingConnection(pika.URLParameters(url))
        self.channel = self.connection.channel()
        self.channel.confirm_delivery()

    def publish(self, raw: bytes):
        claim = json.loads(raw)
        properties = pika.BasicProperties(
            delivery_mode=pika.DeliveryMode.Persistent,
            message_id=claim["guid"],
            content_type="application/json",
        )
        self.channel.basic_publish(self.EXCHANGE, self.ROUTING_KEY, raw, properties, mandatory=True)
        return claim["guid"]

    def close(self):
        if self.connection.is_open:
            self.connection.close()


def main():
    if len(sys.argv) != 2:
        print("usage: publish.py CLAIM_JSON_FILE", file=sys.stderr)
        return 2
    with open(sys.argv[1], "rb") as f:
        raw = f.read()
    publisher = ClaimPublisher(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
    try:
        guid = publisher.publish(raw)
    except pika.exceptions.UnroutableError:
        print("unroutable: nothing is bound for key 'claim'", file=sys.stderr)
        return 1
    except pika.exceptions.NackError:
        print("broker refused the message (nack)", file=sys.stderr)
        return 1
    finally:
        publisher.close()
    print(f"published {guid} (confirmed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
