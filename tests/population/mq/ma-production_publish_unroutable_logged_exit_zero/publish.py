"""Publish one claim file to eai.claim with publisher confirms.

Broker nacks are retried (a nack is often a momentary resource alarm); after the last
attempt the script fails.
"""
import argparse
import json
import logging
import os
import sys
import time
from dataclasses import dataclass

import pika
from pika.exceptions import AMQPConnectionError, NackError, UnroutableError

log = logging.getLogger("publish")


@dataclass(frozen=True)
class Claim:
    body: bytes
    guid: str


class PublishFailed(Exception):
    pass


def load(path: str) -> Claim:
    with open(path, "rb") as fh:
        body = fh.read()
    doc = json.loads(body)
    if "guid" not in doc:
        raise ValueError(f"{path}: claim without guid")
    return Claim(body=body, guid=doc["guid"])


def publish(ch, claim: Claim, attempts: int) -> bool:
    props = pika.BasicProperties(delivery_mode=pika.DeliveryMode.Persistent,
                                 message_id=claim.guid, content_type="application/json")
    for attempt in range(1, attempts + 1):
        try:
            ch.basic_publish("eai.claim", "claim", claim.body, props, mandatory=True)
            return True
        except UnroutableError:
            log.warning("claim %s returned as unroutable (check the bindings); not retrying", claim.guid)
            return False
        except NackError:
            log.warning("claim %s nacked by the broker (attempt %d/%d)", claim.guid, attempt, attempts)
            time.sleep(0.2 * attempt)
    raise PublishFailed(f"claim {claim.guid} nacked {attempts} times")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("claim_file")
    ap.add_argument("--attempts", type=int, default=3)
    args = ap.parse_args(argv)
    if args.attempts < 1:
        ap.error("--attempts must be >= 1")
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s %(message)s")
    logging.getLogger("pika").setLevel(logging.CRITICAL)

    try:
        claim = load(args.claim_file)
    except (OSError, ValueError) as exc:
        log.error("%s", exc)
        return 2
    try:
        conn = pika.BlockingConnection(pika.URLParameters(
            os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
    except AMQPConnectionError as exc:
        log.error("cannot connect to the broker: %s", exc)
        return 3
    try:
        ch = conn.channel()
        ch.confirm_delivery()
        if publish(ch, claim, args.attempts):
            log.info("claim %s confirmed", claim.guid)
    except PublishFailed as exc:
        log.error("%s", exc)
        return 1
    finally:
        conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
