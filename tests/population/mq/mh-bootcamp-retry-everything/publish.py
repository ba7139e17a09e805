#!/usr/bin/env python3
"""Step 3: publish one claim file to eai.claim with confirms + mandatory.

Transient broker hiccups happen, so a nacked publish is retried a few times
before giving up (same idea as retrying a flaky HTTP call).
"""
import argparse
import json
import os
import sys
import time

import pika
from pika.exceptions import NackError, UnroutableError

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
MAX_ATTEMPTS = 3


def publish_with_retry(channel, body, properties):
    for attempt in range(1, MAX_ATTEMPTS + 1):
        try:
            channel.basic_publish(
                exchange="eai.claim",
                routing_key="claim",
                body=body,
                properties=properties,
                mandatory=True,
            )
            print(f"[publish] confirmed (attempt {attempt})")
            return True
        except UnroutableError:
            # no queue bound -> retrying won't help
            print("[publish] ERROR: unroutable, is topology.py run?", file=sys.stderr)
            sys.exit(2)
        except NackError:
            print(f"[publish] nacked by broker (attempt {attempt}/{MAX_ATTEMPTS}), retrying...", file=sys.stderr)
            time.sleep(0.5)
    print("[publish] giving up after too many nacks", file=sys.stderr)
    return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("claim_file")
    args = parser.parse_args()

    with open(args.claim_file, "rb") as f:
        body = f.read()
    claim = json.loads(body)

    properties = pika.BasicProperties(
        delivery_mode=2,
        message_id=claim["guid"],
        content_type="application/json",
    )

    connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    channel = connection.channel()
    channel.confirm_delivery()
    publish_with_retry(channel, body, properties)
    connection.close()


if __name__ == "__main__":
    main()
