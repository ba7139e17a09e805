"""publish.py <claim.json> - publish one claim, wait for the broker's confirm.

Exit status 0 only when the broker confirmed a routed message. Anything else (unroutable,
nack, connection or channel error) prints the reason and exits 1.
"""
import json
import os
import sys

import pika
import pika.exceptions


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: publish.py <claim.json>")
    with open(sys.argv[1], "rb") as f:
        body = f.read()
    guid = json.loads(body)["guid"]

    url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    try:
        with pika.BlockingConnection(pika.URLParameters(url)) as connection:
            channel = connection.channel()
            channel.confirm_delivery()
            channel.basic_publish(
                exchange="eai.claim",
                routing_key="claim",
                body=body,
                properties=pika.BasicProperties(
                    content_type="application/json",
                    delivery_mode=2,
                    message_id=guid,
                ),
                mandatory=True,
            )
    except pika.exceptions.AMQPError as e:
        # UnroutableError and NackError are both AMQPChannelError -> AMQPError
        print(f"NOT published {guid}: {e.__class__.__name__}: {e}", file=sys.stderr)
        sys.exit(1)
    print(f"published {guid} (confirmed)")


if __name__ == "__main__":
    main()
