import os
import sys
import json
import pika

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

if len(sys.argv) != 2:
    print("usage: python3 publish.py FILE")
    sys.exit(2)

with open(sys.argv[1], "rb") as f:
    body = f.read()
claim = json.loads(body)

connection = pika.BlockingConnection(pika.URLParameters(url))
channel = connection.channel()
channel.confirm_delivery()

properties = pika.BasicProperties(
    delivery_mode=2,
    message_id=claim["guid"],
    content_type="application/json",
)

try:
    channel.basic_publish(exchange="eai.claim", routing_key="claim", body=body,
                          properties=properties, mandatory=True)
except pika.exceptions.UnroutableError:
    print("unroutable")
    connection.close()
    sys.exit(1)
except pika.exceptions.NackError:
    print("nacked")
    connection.close()
    sys.exit(1)

print("sent", claim["guid"])
connection.close()
