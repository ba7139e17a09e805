"""Step 3: publish one claim to eai.claim and wait for the broker to confirm it.

    python3 publish.py CLAIM_JSON_FILE

Exit 0 only when the broker confirmed the message: routed to a queue and stored.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from pathlib import Path

import pika
from pika.exceptions import (
    AMQPConnectionError,
    ChannelClosedByBroker,
    NackError,
    UnroutableError,
)

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
CLAIM_EXCHANGE = "eai.claim"
CLAIM_KEY = "claim"

log = logging.getLogger("publish")


def read_guid(body: bytes) -> str:
    """The claim's guid, which becomes the message_id the consumer deduplicates on."""
    claim = json.loads(body)
    guid = claim.get("guid") if isinstance(claim, dict) else None
    if not isinstance(guid, str) or not guid:
        raise ValueError("the claim has no guid")
    return guid


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("pika").setLevel(logging.WARNING)  # pika is chatty at INFO
    parser = argparse.ArgumentParser(description="publish one claim file to eai.claim")
    parser.add_argument("claim_file", type=Path)
    args = parser.parse_args(argv)
    try:
        body = args.claim_file.read_bytes()  # the JSON exactly as it is in the file
        guid = read_guid(body)
    except (OSError, ValueError) as exc:
        log.error("cannot publish %s: %s", args.claim_file, exc)
        return 1

    properties = pika.BasicProperties(
        delivery_mode=pika.DeliveryMode.Persistent,  # a durable queue alone is not enough
        message_id=guid,
        content_type="application/json",
    )
    try:
        connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    except AMQPConnectionError as exc:
        log.error("cannot connect to the broker: %r", exc)
        return 1
    try:
        channel = connection.channel()
        # Publisher confirms: basic_publish now waits for the broker's ack or nack, and with
        # mandatory=True a message no queue takes comes back as UnroutableError.
        channel.confirm_delivery()
        channel.basic_publish(CLAIM_EXCHANGE, CLAIM_KEY, body, properties, mandatory=True)
    except UnroutableError:
        log.error(
            "unroutable: no queue is bound to %s with key %s (run topology.py)",
            CLAIM_EXCHANGE,
            CLAIM_KEY,
        )
        return 1
    except NackError:
        log.error("the broker refused the message (nack): it was not stored")
        return 1
    except ChannelClosedByBroker as exc:  # e.g. 404: the exchange does not exist
        log.error("the broker closed the channel: %s %s", exc.reply_code, exc.reply_text)
        return 1
    except AMQPConnectionError as exc:
        log.error("lost the broker before the confirm: %r", exc)
        return 1
    finally:
        if connection.is_open:
            connection.close()
    log.info("published %s as message %s: confirmed", args.claim_file.name, guid)
    return 0


if __name__ == "__main__":
    sys.exit(main())
