"""python3 publish.py CLAIM_JSON_FILE"""
import json
import sys

import pika
import pika.exceptions

from eaimq import amqp
from eaimq.config import EXCHANGE, KEY


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        text = f.read()
    guid = json.loads(text)["guid"]
    conn = amqp.connect()
    try:
        ch = conn.channel()
        ch.confirm_delivery()
        ch.basic_publish(
            exchange=EXCHANGE,
            routing_key=KEY,
            body=text.encode("utf-8"),
            properties=pika.BasicProperties(
                delivery_mode=pika.spec.PERSISTENT_DELIVERY_MODE,
                message_id=guid,
                content_type="application/json",
            ),
            mandatory=True,
        )
    except pika.exceptions.AMQPChannelError as exc:  # UnroutableError, NackError
        print(f"publish of {guid} failed: {exc!r}", file=sys.stderr)
        return 1
    finally:
        if conn.is_open:
            conn.close()
    print(f"published {guid}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
