"""Publish one claim (JSON file) to eai.claim/claim with confirms; non-zero exit on failure."""
from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import pika
from pika.exceptions import NackError, UnroutableError

log = logging.getLogger("publish")


@dataclass(frozen=True)
class Envelope:
    body: bytes
    message_id: str

    @classmethod
    def from_file(cls, path: Path) -> "Envelope":
        raw = path.read_bytes()
        return cls(body=raw, message_id=str(json.loads(raw)["guid"]))

    def properties(self) -> pika.BasicProperties:
        return pika.BasicProperties(delivery_mode=pika.DeliveryMode.Persistent,
                                    message_id=self.message_id, content_type="application/json")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("claim_file", type=Path)
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    logging.getLogger("pika").setLevel(logging.CRITICAL)
    env = Envelope.from_file(args.claim_file)
    conn = pika.BlockingConnection(pika.URLParameters(
        os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
    try:
        ch = conn.channel()
        ch.confirm_delivery()
        ch.basic_publish("eai.claim", "claim", env.body, env.properties(), mandatory=True)
    except UnroutableError:
        log.error("%s unroutable", env.message_id)
        return 1
    except NackError:
        log.error("%s nacked", env.message_id)
        return 1
    finally:
        if conn.is_open:
            conn.close()
    log.info("%s confirmed", env.message_id)
    return 0


if __name__ == "__main__":
    sys.exit(main())
