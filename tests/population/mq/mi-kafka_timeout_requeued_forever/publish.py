#!/usr/bin/env python3
"""Producer with acks=all semantics: confirm_delivery() is RabbitMQ's acks=all, and
mandatory=True makes "no partition for this key" (unroutable) an error instead of a silent drop.
The record key (message_id) is the claim's guid."""
import json
import os
import sys

import pika

BOOTSTRAP = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def produce(path: str) -> int:
    with open(path, "rb") as fh:
        value = fh.read()
    key = json.loads(value)["guid"]
    producer = pika.BlockingConnection(pika.URLParameters(BOOTSTRAP))
    try:
        ch = producer.channel()
        ch.confirm_delivery()
        ch.basic_publish(
            exchange="eai.claim",
            routing_key="claim",
            body=value,
            properties=pika.BasicProperties(delivery_mode=2, message_id=key,
                                            content_type="application/json"),
            mandatory=True,
        )
    except pika.exceptions.UnroutableError:
        print(f"delivery failed: unroutable (key={key})", file=sys.stderr)
        return 1
    except pika.exceptions.NackError:
        print(f"delivery failed: broker nack (key={key})", file=sys.stderr)
        return 1
    finally:
        if producer.is_open:
            producer.close()
    print(f"delivered key={key}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: publish.py CLAIM_JSON")
    sys.exit(produce(sys.argv[1]))
