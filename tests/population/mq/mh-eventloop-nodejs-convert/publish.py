#!/usr/bin/env python3
"""publish.py CLAIM_JSON_FILE -> eai.claim / claim, with publisher confirms + mandatory."""
import json
import logging
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError

log = logging.getLogger("publish")
AMQP_URL = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("pika").setLevel(logging.WARNING)
    if len(sys.argv) != 2:
        log.error("usage: %s CLAIM_JSON_FILE", sys.argv[0])
        return 64
    with open(sys.argv[1], "rb") as fh:
        body = fh.read()
    guid = json.loads(body)["guid"]

    with pika.BlockingConnection(pika.URLParameters(AMQP_URL)) as conn:
        ch = conn.channel()
        ch.confirm_delivery()
        try:
            ch.basic_publish(
                exchange="eai.claim",
                routing_key="claim",
                body=body,
                properties=pika.BasicProperties(
                    content_type="application/json",
                    delivery_mode=pika.DeliveryMode.Persistent,
                    message_id=guid,
                ),
                mandatory=True,
            )
        except UnroutableError as exc:
            log.error("unroutable, returned by broker: %s", exc)
            return 1
        except NackError as exc:
            log.error("broker nacked the publish: %s", exc)
            return 1
    log.info("confirmed %s", guid)
    return 0


if __name__ == "__main__":
    sys.exit(main())
