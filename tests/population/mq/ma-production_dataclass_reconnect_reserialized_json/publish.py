"""Publish one claim JSON file to eai.claim with publisher confirms (exit codes: 0 ok,
2 usage, 3 unroutable, 4 nacked by the broker, 5 broker unreachable, 6 bad claim file)."""
from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pika
from pika.exceptions import AMQPConnectionError, NackError, UnroutableError

from amqp_common import connect, setup_logging

log = logging.getLogger("eai.mq.publish")

EXIT_OK, EXIT_UNROUTABLE, EXIT_NACKED, EXIT_UNREACHABLE, EXIT_BAD_FILE = 0, 3, 4, 5, 6


@dataclass(frozen=True)
class Claim:
    guid: str
    claim_id: str
    payload: dict

    @classmethod
    def load(cls, path: Path) -> "Claim":
        payload = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(payload, dict) or not payload.get("guid"):
            raise ValueError(f"{path}: not a claim (no guid)")
        return cls(guid=str(payload["guid"]), claim_id=str(payload.get("claimId", "")), payload=payload)

    def body(self) -> bytes:
        # canonical, compact UTF-8 JSON
        return json.dumps(self.payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="publish a claim to eai.claim")
    parser.add_argument("claim_file", type=Path)
    parser.add_argument("--log-level", default="INFO")
    args = parser.parse_args(argv)
    setup_logging(args.log_level)

    try:
        claim = Claim.load(args.claim_file)
    except (OSError, ValueError) as exc:
        log.error("cannot read claim: %s", exc)
        return EXIT_BAD_FILE

    props = pika.BasicProperties(
        content_type="application/json",
        content_encoding="utf-8",
        delivery_mode=pika.DeliveryMode.Persistent,
        message_id=claim.guid,
        timestamp=int(time.time()),
        app_id="eai-claim-publisher",
        headers={"x-claim-id": claim.claim_id},
    )
    try:
        connection = connect(attempts=3)
    except AMQPConnectionError as exc:
        log.error("broker unreachable: %r", exc)
        return EXIT_UNREACHABLE
    try:
        channel = connection.channel()
        channel.confirm_delivery()
        channel.basic_publish(exchange="eai.claim", routing_key="claim", body=claim.body(),
                              properties=props, mandatory=True)
    except UnroutableError:
        log.error("claim %s unroutable (nothing bound to eai.claim/claim)", claim.guid)
        return EXIT_UNROUTABLE
    except NackError:
        log.error("claim %s nacked by the broker", claim.guid)
        return EXIT_NACKED
    finally:
        if connection.is_open:
            connection.close()
    log.info("claim %s (%s) confirmed", claim.guid, claim.claim_id)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
