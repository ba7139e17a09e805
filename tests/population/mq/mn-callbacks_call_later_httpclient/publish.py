#!/usr/bin/env python3
# publish.py CLAIM_JSON_FILE
# exit 0 = confirmed by broker, 3 = unroutable (mandatory), 4 = nacked, 2 = usage/bad file
import json
import os
import sys

import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

if len(sys.argv) != 2:
    sys.stderr.write("usage: publish.py CLAIM_JSON_FILE\n")
    sys.exit(2)

with open(sys.argv[1], "rb") as fh:
    raw = fh.read()          # send exactly the bytes of the file
try:
    guid = json.loads(raw)["guid"]
except (ValueError, KeyError, TypeError) as exc:
    sys.stderr.write("not a claim with a guid: %s\n" % exc)
    sys.exit(2)

props = pika.BasicProperties(
    delivery_mode=2,
    message_id=str(guid),
    content_type="application/json",
)

conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
ch = conn.channel()
ch.confirm_delivery()
code = 0
try:
    ch.basic_publish(exchange="eai.claim", routing_key="claim", body=raw,
                     properties=props, mandatory=True)
except pika.exceptions.UnroutableError:
    sys.stderr.write("unroutable: nothing bound to eai.claim/claim\n")
    code = 3
except pika.exceptions.NackError:
    sys.stderr.write("broker nacked the message\n")
    code = 4
finally:
    conn.close()
if code == 0:
    print("published", guid)
sys.exit(code)
