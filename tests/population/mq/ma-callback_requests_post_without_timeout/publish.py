#!/usr/bin/env python3
import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
body = open(sys.argv[1], "rb").read()
props = pika.BasicProperties(delivery_mode=2, content_type="application/json",
                             message_id=json.loads(body)["guid"])

conn = pika.BlockingConnection(pika.URLParameters(url))
ch = conn.channel()
ch.confirm_delivery()
try:
    ch.basic_publish("eai.claim", "claim", body, props, mandatory=True)
except (UnroutableError, NackError) as exc:
    conn.close()
    sys.exit(f"not published: {exc!r}")
conn.close()
print("published", props.message_id)
