#!/usr/bin/env python3
"""publish.py <claim.json> - publish one claim with publisher confirms (mandatory)."""
import json
import logging
import os
import sys

import pika
from pika.exceptions import AMQPError, NackError, UnroutableError

log = logging.getLogger("publish")


class PublisherSettings:
    def __init__(self):
        self.url = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
        self.exchange = os.getenv("EAI_EXCHANGE", "eai.claim")
        self.routing_key = os.getenv("EAI_ROUTING_KEY", "claim")


class Claim:
    """Value object: the parsed claim and its guid."""

    def __init__(self, data):
        if not isinstance(data, dict) or not data.get("guid"):
            raise ValueError("claim has no guid")
        self.data = data
        self.guid = str(data["guid"])

    @classmethod
    def from_file(cls, path):
        with open(path, encoding="utf-8-sig") as f:
            return cls(json.load(f))

    def to_bytes(self):
        # normalised JSON, UTF-8, Korean kept as is
        return json.dumps(self.data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class ConfirmingPublisher:
    def __init__(self, settings):
        self.settings = settings

    def send(self, claim):
        conn = pika.BlockingConnection(pika.URLParameters(self.settings.url))
        try:
            ch = conn.channel()
            ch.confirm_delivery()
            ch.basic_publish(
                self.settings.exchange,
                self.settings.routing_key,
                claim.to_bytes(),
                pika.BasicProperties(content_type="application/json", delivery_mode=2, message_id=claim.guid),
                mandatory=True,
            )
        finally:
            try:
                conn.close()
            except AMQPError:
                pass


def main(argv):
    logging.basicConfig(level=os.getenv("LOG_LEVEL", "INFO"), format="%(asctime)s %(levelname)-5s %(name)s - %(message)s")
    logging.getLogger("pika").setLevel(logging.ERROR)
    if len(argv) != 1:
        print("usage: publish.py <claim.json>", file=sys.stderr)
        return 64
    try:
        claim = Claim.from_file(argv[0])
    except (OSError, ValueError) as e:
        log.error("bad claim file %s: %s", argv[0], e)
        return 65
    try:
        ConfirmingPublisher(PublisherSettings()).send(claim)
    except UnroutableError:
        log.error("unroutable: nothing bound for this key (guid=%s)", claim.guid)
        return 1
    except NackError:
        log.error("broker refused (nack) guid=%s", claim.guid)
        return 1
    except AMQPError as e:
        log.error("AMQP failure: %r", e)
        return 1
    log.info("confirmed guid=%s", claim.guid)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
