#!/usr/bin/env python3
"""Declare (and optionally verify) the claim topology. Idempotent."""
import argparse
import logging
import os
import sys
import time

import pika
from pika.exceptions import AMQPConnectionError

log = logging.getLogger("topology")

DLX_ARGS = {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"}


def connect(url, attempts=5):
    for i in range(1, attempts + 1):
        try:
            return pika.BlockingConnection(pika.URLParameters(url))
        except AMQPConnectionError as exc:
            if i == attempts:
                raise
            log.warning("connect failed (%s), retry %d/%d", exc, i, attempts)
            time.sleep(0.5 * i)


def declare(ch):
    ch.exchange_declare("eai.claim", exchange_type="direct", durable=True)
    ch.exchange_declare("eai.dlx", exchange_type="direct", durable=True)
    ch.queue_declare("claim.in", durable=True, arguments=DLX_ARGS)
    ch.queue_declare("claim.dead", durable=True)
    ch.queue_bind("claim.in", "eai.claim", routing_key="claim")
    ch.queue_bind("claim.dead", "eai.dlx", routing_key="claim.dead")


def verify(ch):
    for ex in ("eai.claim", "eai.dlx"):
        ch.exchange_declare(ex, passive=True)
    for q in ("claim.in", "claim.dead"):
        ok = ch.queue_declare(q, passive=True)
        log.info("%s: %d ready, %d consumers", q, ok.method.message_count, ok.method.consumer_count)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--verify", action="store_true", help="passively re-check everything afterwards")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO if args.verbose or args.verify else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    conn = connect(url)
    try:
        ch = conn.channel()
        declare(ch)
        if args.verify:
            verify(ch)
    finally:
        conn.close()
    log.info("topology in place")
    return 0


if __name__ == "__main__":
    sys.exit(main())
