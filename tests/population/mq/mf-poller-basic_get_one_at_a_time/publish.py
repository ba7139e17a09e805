#!/usr/bin/env python3
# publish.py CLAIM_JSON_FILE
import json
import os
import sys
import pika

if len(sys.argv) != 2:
    print("usage: publish.py CLAIM_JSON_FILE", file=sys.stderr)
    sys.exit(64)

with open(sys.argv[1], "rb") as f:
    raw = f.read()
claim = json.loads(raw)

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
conn = pika.BlockingConnection(pika.URLParameters(url))
ch = conn.channel()
ch.confirm_delivery()

props = pika.BasicProperties(
    delivery_mode=2,
    message_id=str(claim["guid"]),
    content_type="application/json",
)
try:
    ch.basic_publish(exchange="eai.claim", routing_key="claim", body=raw,
                     properties=props, mandatory=True)
except pika.exceptions.UnroutableError:
    print("unroutable: nothing bound for key claim", file=sys.stderr)
    conn.close()
    sys.exit(2)
except pika.exceptions.NackError:
    print("broker nacked the message", file=sys.stderr)
    conn.close()
    sys.exit(3)

print("published", claim["guid"])
conn.close()
