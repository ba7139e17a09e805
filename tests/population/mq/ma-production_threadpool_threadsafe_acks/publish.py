#!/usr/bin/env python3
"""Publish a claim JSON file to eai.claim (confirms + mandatory). Exit 1 when the broker
did not take it (unroutable or nacked), 2 on bad usage/input."""
import argparse
import json
import logging
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError

log = logging.getLogger("publish")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("claim_file")
    ap.add_argument("--exchange", default="eai.claim")
    ap.add_argument("--routing-key", default="claim")
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")

    try:
        with open(args.claim_file, "rb") as fh:
            body = fh.read()
        guid = json.loads(body)["guid"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.error("bad claim file %s: %s", args.claim_file, exc)
        return 2

    url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    conn = pika.BlockingConnection(pika.URLParameters(url))
    try:
        ch = conn.channel()
        ch.confirm_delivery()
        ch.basic_publish(args.exchange, args.routing_key, body,
                         pika.BasicProperties(delivery_mode=pika.DeliveryMode.Persistent,
                                              message_id=guid, content_type="application/json"),
                         mandatory=True)
    except UnroutableError:
        log.error("%s: no queue bound for %s/%s", guid, args.exchange, args.routing_key)
        return 1
    except NackError:
        log.error("%s: broker refused the message (nack)", guid)
        return 1
    finally:
        if conn.is_open:
            conn.close()
    log.info("%s confirmed by the broker", guid)
    return 0


if __name__ == "__main__":
    sys.exit(main())
