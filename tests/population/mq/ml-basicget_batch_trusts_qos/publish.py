import json
import os
import sys
import uuid

import pika

if len(sys.argv) < 2:
    sys.exit("usage: publish.py <claim.json>")

raw = open(sys.argv[1], "rb").read()
doc = json.loads(raw)

props = pika.BasicProperties(
    delivery_mode=2,
    message_id=doc["guid"],
    content_type="application/json",
    correlation_id=str(uuid.uuid4()),       # trace id for this publish
    headers={"claim-id": doc.get("claimId"), "publisher": "publish.py"},
)

conn = pika.BlockingConnection(pika.URLParameters(
    os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
ch = conn.channel()
ch.confirm_delivery()
try:
    ch.basic_publish("eai.claim", "claim", raw, props, mandatory=True)
except pika.exceptions.UnroutableError:
    conn.close()
    sys.exit("unroutable: no queue bound to eai.claim with key 'claim'")
except pika.exceptions.NackError:
    conn.close()
    sys.exit("nacked by the broker")
conn.close()
print("ok", doc["guid"])
