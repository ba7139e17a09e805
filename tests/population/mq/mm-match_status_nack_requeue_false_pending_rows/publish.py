#!/usr/bin/env python3
"""publish.py CLAIM_JSON: publish one claim file to eai.claim (key claim) with confirms + mandatory."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pika
from pika.exceptions import NackError, UnroutableError

AMQP_URL: str = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main(argv: list[str]) -> int:
    match argv:
        case [_, path]:
            pass
        case _:
            print(f"usage: {argv[0]} CLAIM_JSON", file=sys.stderr)
            return 2

    raw: bytes = Path(path).read_bytes()
    guid: str = json.loads(raw)["guid"]
    properties = pika.BasicProperties(
        content_type="application/json",
        delivery_mode=pika.DeliveryMode.Persistent,  # == 2
        message_id=guid,
    )

    with pika.BlockingConnection(pika.URLParameters(AMQP_URL)) as connection:
        channel = connection.channel()
        channel.confirm_delivery()
        try:
            channel.basic_publish(
                exchange="eai.claim",
                routing_key="claim",
                body=raw,
                properties=properties,
                mandatory=True,
            )
        except UnroutableError:
            print(f"unroutable: nothing bound to eai.claim/claim ({guid})", file=sys.stderr)
            return 1
        except NackError:
            print(f"nacked by the broker ({guid})", file=sys.stderr)
            return 1
    print(f"confirmed {guid}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
