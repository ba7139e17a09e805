import json
import os
import sys

import pika

if len(sys.argv) < 2:
    print("usage: python3 publish.py <claim json file>")
    sys.exit(2)

with open(sys.argv[1], "rb") as f:
    body = f.read()
claim = json.loads(body)

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
connection = pika.BlockingConnection(pika.URLParameters(url))
channel = connection.channel()
channel.confirm_delivery()

props = pika.BasicProperties(
    delivery_mode=2,
    message_id=claim["guid"],
    content_type="application/json",
)
try:
    channel.basic_publish(exchange="eai.claim", routing_key="claim", body=body,
                          properties=props, mandatory=True)
except pika.exceptions.UnroutableError:
    print("unroutable!", file=sys.stderr)
    connection.close()
    sys.exit(1)
except pika.exceptions.NackError:
    print("nacked!", file=sys.stderr)
    connection.close()
    sys.exit(1)

connection.close()
print("published", claim["guid"])
