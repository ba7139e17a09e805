#!/usr/bin/env python3
# publish.py CLAIM.json - one claim to eai.claim/claim, persistent, confirmed, mandatory.
# (Blocking here: confirm + mandatory is one call with BlockingConnection.)
import json
import os
import sys

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

if len(sys.argv) != 2:
    sys.exit("usage: publish.py CLAIM.json")

with open(sys.argv[1], "rb") as f:
    body = f.read()
guid = json.loads(body)["guid"]

conn = pika.BlockingConnection(pika.URLParameters(URL))
ch = conn.channel()
ch.confirm_delivery()
try:
    ch.basic_publish(
        exchange="eai.claim",
        routing_key="claim",
        body=body,
        properties=pika.BasicProperties(delivery_mode=2, message_id=guid,
                                        content_type="application/json"),
        mandatory=True,
    )
except pika.exceptions.UnroutableError:
    print("unroutable: nothing bound to eai.claim/claim", file=sys.stderr)
    sys.exit(1)
except pika.exceptions.NackError:
    print("broker nacked the message", file=sys.stderr)
    sys.exit(1)
finally:
    if conn.is_open:
        conn.close()
print("published", guid)
