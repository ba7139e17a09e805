#!/usr/bin/env python3
"""publish.py CLAIM.json: one claim to eai.claim (key claim), confirmed, mandatory."""
import json
import os
import sys
import time

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

path = sys.argv[1]
with open(path, encoding="utf-8") as fh:
    claim = json.load(fh)

# compact, keys in file order, Hangul kept as UTF-8 (not \u escapes): same JSON value as the file
body = json.dumps(claim, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
props = pika.BasicProperties(
    content_type="application/json",
    content_encoding="utf-8",
    delivery_mode=pika.DeliveryMode.Persistent,
    message_id=claim["guid"],
    correlation_id=claim.get("claimId"),
    timestamp=int(time.time()),
    headers={"source-file": os.path.basename(path)},
)

conn = pika.BlockingConnection(pika.URLParameters(URL))
ch = conn.channel()
ch.confirm_delivery()
code = 0
try:
    ch.basic_publish(exchange="eai.claim", routing_key="claim", body=body,
                     properties=props, mandatory=True)
    print("ack from broker for", claim["guid"])
except pika.exceptions.UnroutableError as e:
    print("UNROUTABLE", claim["guid"], e, file=sys.stderr)
    code = 1
except pika.exceptions.NackError as e:
    print("NACKED", claim["guid"], e, file=sys.stderr)
    code = 1
conn.close()
sys.exit(code)
