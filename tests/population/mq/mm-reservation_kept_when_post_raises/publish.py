"""Publishes a claim JSON file to eai.claim with routing key 'claim' (confirmed, mandatory)."""
import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError


class ClaimPublisher:
    def __init__(self, url):
        self.connection = pika.BlockingConnection(pika.URLParameters(url))
        self.channel = self.connection.channel()
        self.channel.confirm_delivery()

    def publish(self, body, guid):
        self.channel.basic_publish(
            exchange="eai.claim",
            routing_key="claim",
            body=body,
            properties=pika.BasicProperties(
                delivery_mode=2, message_id=guid, content_type="application/json"),
            mandatory=True,
        )

    def close(self):
        if self.connection.is_open:
            self.connection.close()


def main():
    if len(sys.argv) != 2:
        print("Usage: publish.py <claim.json>", file=sys.stderr)
        return 2
    with open(sys.argv[1], "rb") as f:
        body = f.read()
    guid = json.loads(body)["guid"]
    publisher = ClaimPublisher(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
    try:
        publisher.publish(body, guid)
    except UnroutableError:
        print("Unroutable: " + guid, file=sys.stderr)
        return 1
    except NackError:
        print("Nacked: " + guid, file=sys.stderr)
        return 1
    finally:
        publisher.close()
    print("Published and confirmed: " + guid)
    return 0


if __name__ == "__main__":
    sys.exit(main())
