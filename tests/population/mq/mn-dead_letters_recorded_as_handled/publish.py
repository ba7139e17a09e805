#!/usr/bin/env python3
import json
import os
import sys

import pika

if len(sys.argv) != 2:
    sys.exit("usage: publish.py CLAIM_JSON_FILE")

with open(sys.argv[1], "rb") as f:
    body = f.read()
claim = json.loads(body)

params = pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
with pika.BlockingConnection(params) as connection:
    channel = connection.channel()
    channel.confirm_delivery()
    try:
        channel.basic_publish(exchange="eai.claim", routing_key="claim", body=body, mandatory=True,
                              properties=pika.BasicProperties(content_type="application/json",
                                                              delivery_mode=2,
                                                              message_id=claim["guid"]))
    except pika.exceptions.UnroutableError:
        sys.exit("unroutable: " + claim["guid"])
    except pika.exceptions.NackError:
        sys.exit("nacked: " + claim["guid"])
print("published " + claim["guid"])
