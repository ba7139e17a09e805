# publish.py <claim json file>
# No try/except on purpose: if the broker says unroutable (UnroutableError) or
# nack (NackError) the exception goes up and python exits with code 1.
import json
import os
import sys

import pika

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

with open(sys.argv[1], encoding="utf-8") as f:
    claim = json.load(f)

body = json.dumps(claim, ensure_ascii=False).encode("utf-8")

connection = pika.BlockingConnection(pika.URLParameters(url))
channel = connection.channel()
channel.confirm_delivery()
channel.basic_publish(
    exchange="eai.claim",
    routing_key="claim",
    body=body,
    properties=pika.BasicProperties(
        content_type="application/json",
        delivery_mode=pika.DeliveryMode.Persistent,
        message_id=claim["guid"],
    ),
    mandatory=True,
)
connection.close()
print("sent " + claim["guid"])
