#!/usr/bin/env python3
# publish.py CLAIM_JSON_FILE
import hashlib
import json
import os
import sys
import time
import uuid

import pika
from pika.exceptions import AMQPError, NackError, UnroutableError

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

if len(sys.argv) != 2:
    sys.exit("usage: publish.py CLAIM_JSON_FILE")

raw = open(sys.argv[1], "rb").read()
doc = json.loads(raw.decode("utf-8"))
if not isinstance(doc, dict) or not doc.get("guid"):
    sys.exit("the claim has no guid")

props = pika.BasicProperties(
    content_type="application/json",
    delivery_mode=2,
    message_id=str(doc["guid"]),
    correlation_id=str(uuid.uuid4()),
    timestamp=int(time.time()),
    headers={
        "claim-id": doc.get("claimId"),
        "source-file": os.path.basename(sys.argv[1]),
        "body-sha256": hashlib.sha256(raw).hexdigest(),
    },
)

rc = 0
conn = pika.BlockingConnection(pika.URLParameters(URL))
try:
    ch = conn.channel()
    ch.confirm_delivery()
    ch.basic_publish(exchange="eai.claim", routing_key="claim", body=raw,
                     properties=props, mandatory=True)
    print("ok", doc["guid"])
except UnroutableError:
    print("FAILED: unroutable (returned by the broker)", file=sys.stderr)
    rc = 2
except NackError:
    print("FAILED: broker nacked the message", file=sys.stderr)
    rc = 3
except AMQPError as e:
    print("FAILED:", repr(e), file=sys.stderr)
    rc = 4
finally:
    if conn.is_open:
        conn.close()
sys.exit(rc)
