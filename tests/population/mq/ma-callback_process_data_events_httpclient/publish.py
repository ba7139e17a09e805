#!/usr/bin/env python3
"""Usage: publish.py CLAIM_JSON_FILE"""
import json
import os
import sys

import pika

if len(sys.argv) != 2:
    sys.exit(__doc__)

raw = open(sys.argv[1], "rb").read()
claim = json.loads(raw)

params = pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
with pika.BlockingConnection(params) as conn:
    ch = conn.channel()
    ch.confirm_delivery()
    try:
        ch.basic_publish(
            exchange="eai.claim",
            routing_key="claim",
            body=raw,
            properties=pika.BasicProperties(
                delivery_mode=2,
                message_id=claim["guid"],
                correlation_id=claim.get("claimId"),
                content_type="application/json",
                headers={"policy-no": claim.get("policyNo")},
            ),
            mandatory=True,
        )
    except pika.exceptions.UnroutableError as e:
        print("UNROUTABLE", claim["guid"], e, file=sys.stderr)
        sys.exit(1)
    except pika.exceptions.NackError as e:
        print("NACKED", claim["guid"], e, file=sys.stderr)
        sys.exit(1)
print("ok", claim["guid"])
