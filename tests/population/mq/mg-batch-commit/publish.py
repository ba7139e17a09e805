#!/usr/bin/env python3
"""publish.py CLAIM_JSON_FILE"""
import json
import os
import sys
import pika

path = sys.argv[1]
body = open(path, "rb").read()
guid = json.loads(body)["guid"]

params = pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
conn = pika.BlockingConnection(params)
ch = conn.channel()
ch.confirm_delivery()

status = 0
try:
    ch.basic_publish(exchange="eai.claim", routing_key="claim", body=body, mandatory=True,
                     properties=pika.BasicProperties(delivery_mode=2, message_id=guid,
                                                     content_type="application/json"))
    print("confirmed", guid)
except pika.exceptions.UnroutableError:
    print("unroutable", guid, file=sys.stderr)
    status = 1
except pika.exceptions.NackError:
    print("nacked", guid, file=sys.stderr)
    status = 1
conn.close()
sys.exit(status)
