#!/usr/bin/env python3
"""publish.py FILE -- send one claim JSON to eai.claim with confirms + mandatory.

exit codes: 0 ok, 1 unroutable, 2 nacked, 3 bad input file, 4 AMQP error
"""
import argparse
import json
import os
import sys
import time

import pika
from pika.exceptions import AMQPError, NackError, UnroutableError

ap = argparse.ArgumentParser()
ap.add_argument("claim_file")
args = ap.parse_args()

try:
    raw = open(args.claim_file, "rb").read()
    doc = json.loads(raw.decode("utf-8"))
    guid = str(doc["guid"])
except (OSError, ValueError, KeyError, TypeError) as e:
    print(f"cannot read claim {args.claim_file}: {e}", file=sys.stderr)
    sys.exit(3)

props = pika.BasicProperties(
    content_type="application/json",
    content_encoding="utf-8",
    delivery_mode=2,
    message_id=guid,
    timestamp=int(time.time()),
    app_id="eaimw-publish",
    headers={"source-file": os.path.basename(args.claim_file)},
)
try:
    conn = pika.BlockingConnection(pika.URLParameters(os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
    ch = conn.channel()
    ch.confirm_delivery()
    try:
        ch.basic_publish("eai.claim", "claim", raw, props, mandatory=True)
    except UnroutableError:
        print("UNROUTABLE: no queue bound to eai.claim with key 'claim'", file=sys.stderr)
        sys.exit(1)
    except NackError:
        print("NACK: the broker refused the message", file=sys.stderr)
        sys.exit(2)
    finally:
        if conn.is_open:
            conn.close()
except AMQPError as e:
    print(f"AMQP error: {e!r}", file=sys.stderr)
    sys.exit(4)
print(f"ok {guid}")
