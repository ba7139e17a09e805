from __future__ import annotations

import json
import os
import sys

import pika

URL: str = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def publish(raw: bytes) -> None:
    guid = json.loads(raw)["guid"]
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    try:
        ch = conn.channel()
        ch.confirm_delivery()
        ch.basic_publish(
            exchange="eai.claim",
            routing_key="claim",
            body=raw,
            properties=pika.BasicProperties(
                delivery_mode=pika.DeliveryMode.Persistent,
                message_id=guid,
                content_type="application/json",
            ),
            mandatory=True,
        )
    finally:
        conn.close()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: publish.py CLAIM_JSON_FILE")
    with open(sys.argv[1], "rb") as fh:
        data = fh.read()
    try:
        publish(data)
    except (pika.exceptions.UnroutableError, pika.exceptions.NackError) as exc:
        print(f"not accepted by the broker: {exc!r}", file=sys.stderr)
        sys.exit(1)
    print("ok")
