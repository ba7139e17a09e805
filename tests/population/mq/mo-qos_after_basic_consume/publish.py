#!/usr/bin/env python3
# step 3: python3 publish.py claim.json
import json
import os
import sys

import pika

path = sys.argv[1]
body = open(path, "rb").read()
guid = json.loads(body)["guid"]

conn = pika.BlockingConnection(pika.URLParameters(
    os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
ch = conn.channel()
ch.confirm_delivery()
code = 0
try:
    ch.basic_publish(exchange="eai.claim", routing_key="claim", body=body,
                     properties=pika.BasicProperties(delivery_mode=2, message_id=guid,
                                                     content_type="application/json"),
                     mandatory=True)
    print("confirmed", guid)
except pika.exceptions.UnroutableError:
    print("unroutable", file=sys.stderr)
    code = 1
except pika.exceptions.NackError:
    print("nacked", file=sys.stderr)
    code = 1
conn.close()
sys.exit(code)
