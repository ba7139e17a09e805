#!/usr/bin/env python3
"""publish.py CLAIM_JSON_FILE

The claim is validated and sent as compact UTF-8 JSON (same content as the file)."""
import json
import os
import sys
import uuid

import pika
from pika.exceptions import NackError, UnroutableError

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def load_claim(path):
    with open(path, encoding="utf-8") as f:
        claim = json.load(f)
    if not isinstance(claim, dict) or not claim.get("guid"):
        raise SystemExit(f"{path}: not a claim (no guid)")
    return claim


def main(argv):
    if len(argv) != 2:
        raise SystemExit("usage: publish.py CLAIM_JSON_FILE")
    claim = load_claim(argv[1])
    body = json.dumps(claim, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    props = pika.BasicProperties(
        content_type="application/json",
        content_encoding="utf-8",
        delivery_mode=pika.DeliveryMode.Persistent,
        message_id=claim["guid"],
        headers={
            "x-claim-id": claim.get("claimId"),
            "x-schema": "claim/v1",
            "x-publish-attempt": str(uuid.uuid4()),
        },
    )
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    returned = []
    ch.add_on_return_callback(lambda _ch, method, _props, _body: returned.append(method.reply_text))
    ch.confirm_delivery()
    rc = 0
    try:
        ch.basic_publish(exchange="eai.claim", routing_key="claim", body=body, properties=props, mandatory=True)
        print(f"confirmed {claim['guid']} ({claim.get('claimId')})")
    except UnroutableError:
        print(f"returned by the broker: {returned or 'NO_ROUTE'}", file=sys.stderr)
        rc = 2
    except NackError:
        print("the broker nacked the message", file=sys.stderr)
        rc = 3
    finally:
        conn.close()
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
