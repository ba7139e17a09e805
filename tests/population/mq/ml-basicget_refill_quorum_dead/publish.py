#!/usr/bin/env python3
"""publish.py CLAIM_JSON_FILE - publish one claim to eai.claim/claim with confirms.

Exit codes (sysexits-style, like our ops scripts):
  0  confirmed by the broker
  64 usage error
  65 the file is not a JSON object with a guid
  69 unroutable (basic.return, mandatory)
  75 nacked by the broker
"""
import json
import os
import sys
import time

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main(argv):
    if len(argv) != 2:
        print("usage: publish.py CLAIM_JSON_FILE", file=sys.stderr)
        return 64
    with open(argv[1], "rb") as f:
        raw = f.read()  # the body goes out byte for byte
    try:
        claim = json.loads(raw)
        guid = claim["guid"]
    except (ValueError, KeyError, TypeError) as e:
        print(f"not a claim: {e}", file=sys.stderr)
        return 65

    props = pika.BasicProperties(
        delivery_mode=pika.DeliveryMode.Persistent,  # 2
        message_id=str(guid),
        content_type="application/json",
        content_encoding="utf-8",
        correlation_id=str(claim.get("claimId", "")) or None,
        app_id="eaimw-publish",
        type="claim",
        timestamp=int(time.time()),
    )
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    try:
        ch = conn.channel()
        ch.confirm_delivery()
        try:
            ch.basic_publish(exchange="eai.claim", routing_key="claim", body=raw,
                             properties=props, mandatory=True)
        except pika.exceptions.UnroutableError as e:
            rc = e.messages[0].method.reply_code if e.messages else "?"
            print(f"unroutable ({rc}): nothing bound for 'claim' on eai.claim", file=sys.stderr)
            return 69
        except pika.exceptions.NackError:
            print("broker nacked the message", file=sys.stderr)
            return 75
    finally:
        if conn.is_open:
            conn.close()
    print(f"confirmed {guid}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
