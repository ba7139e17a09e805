#!/usr/bin/env python3
import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError

if len(sys.argv) != 2:
    sys.exit("usage: publish.py CLAIM_JSON_FILE")
body = open(sys.argv[1], "rb").read()
guid = json.loads(body)["guid"]
url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
with pika.BlockingConnection(pika.URLParameters(url)) as conn:
    ch = conn.channel()
    ch.confirm_delivery()
    try:
        ch.basic_publish("eai.claim", "claim", body, mandatory=True,
                         properties=pika.BasicProperties(delivery_mode=2, message_id=guid,
                                                         content_type="application/json"))
    except UnroutableError:
        sys.exit(f"unroutable: {guid}")
    except NackError:
        sys.exit(f"nacked: {guid}")
print("confirmed", guid)
