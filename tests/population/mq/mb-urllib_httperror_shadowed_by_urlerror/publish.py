#!/usr/bin/env python3
import json
import os
import sys

import pika
import pika.exceptions

if len(sys.argv) != 2:
    sys.exit("usage: publish.py CLAIM_JSON_FILE")

data = open(sys.argv[1], "rb").read()
guid = json.loads(data)["guid"]

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
connection = pika.BlockingConnection(pika.URLParameters(url))
channel = connection.channel()
channel.confirm_delivery()
try:
    channel.basic_publish(exchange="eai.claim", routing_key="claim", body=data,
                          properties=pika.BasicProperties(delivery_mode=2, message_id=guid,
                                                          content_type="application/json"),
                          mandatory=True)
except (pika.exceptions.UnroutableError, pika.exceptions.NackError) as e:
    connection.close()
    sys.exit(f"publish failed: {e!r}")
connection.close()
print("published", guid)
