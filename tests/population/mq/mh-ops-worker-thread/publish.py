#!/usr/bin/env python3
"""publish.py CLAIM_JSON_FILE

Exit codes: 0 confirmed, 2 usage/bad file, 10 unroutable (returned), 11 nacked by broker,
12 other AMQP failure.
"""
from __future__ import annotations

import json
import sys
import time

import pika
from pika.exceptions import AMQPError, NackError, UnroutableError

from common import EXCHANGE, ROUTING_KEY, Settings, log

EX_OK, EX_USAGE, EX_UNROUTABLE, EX_NACK, EX_AMQP = 0, 2, 10, 11, 12


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        log("usage", msg="publish.py CLAIM_JSON_FILE")
        return EX_USAGE
    try:
        with open(argv[0], "rb") as fh:
            raw = fh.read()
        claim = json.loads(raw)
        guid = str(claim["guid"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log("bad_input", file=argv[0], error=repr(exc))
        return EX_USAGE

    props = pika.BasicProperties(
        content_type="application/json",
        delivery_mode=2,
        message_id=guid,
        correlation_id=str(claim.get("claimId", "")) or None,
        timestamp=int(time.time()),
        app_id="eaimw-claim-publisher",
    )
    cfg = Settings()
    try:
        conn = pika.BlockingConnection(pika.URLParameters(cfg.amqp_url))
    except AMQPError as exc:
        log("connect_failed", error=repr(exc))
        return EX_AMQP
    try:
        ch = conn.channel()
        ch.confirm_delivery()
        ch.basic_publish(EXCHANGE, ROUTING_KEY, raw, properties=props, mandatory=True)
    except UnroutableError:
        log("unroutable", guid=guid, exchange=EXCHANGE, key=ROUTING_KEY)
        return EX_UNROUTABLE
    except NackError:
        log("nacked", guid=guid)
        return EX_NACK
    except AMQPError as exc:
        log("amqp_error", guid=guid, error=repr(exc))
        return EX_AMQP
    finally:
        if conn.is_open:
            conn.close()
    log("published", guid=guid, bytes=len(raw))
    return EX_OK


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
