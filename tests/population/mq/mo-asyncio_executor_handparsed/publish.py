#!/usr/bin/env python3
# step 3 -- publish one claim file, confirmed, mandatory
import json
import os
import pathlib
import sys

import pika

if len(sys.argv) != 2:
    sys.exit("usage: publish.py <claim.json>")

raw = pathlib.Path(sys.argv[1]).read_bytes()  # sent exactly as it is on disk
guid = json.loads(raw)["guid"]

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
conn = pika.BlockingConnection(pika.URLParameters(url))
ch = conn.channel()
ch.confirm_delivery()

status = 0
try:
    ch.basic_publish(
        exchange="eai.claim",
        routing_key="claim",
        body=raw,
        properties=pika.BasicProperties(
            delivery_mode=pika.DeliveryMode.Persistent,
            message_id=guid,
            content_type="application/json",
        ),
        mandatory=True,
    )
    print("confirmed", guid)
except pika.exceptions.UnroutableError:
    print("UNROUTABLE: nothing bound to eai.claim/claim", file=sys.stderr)
    status = 10
except pika.exceptions.NackError:
    print("NACKED by the broker", file=sys.stderr)
    status = 11
finally:
    if conn.is_open:
        conn.close()
sys.exit(status)
