import os
import sys
import json
import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

filename = sys.argv[1]
with open(filename, "r", encoding="utf-8") as f:
    body = f.read()

data = json.loads(body)
guid = data["guid"]
print("publishing claim", data["claimId"], "guid", guid)

connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
channel = connection.channel()
channel.confirm_delivery()

ok = True
try:
    channel.basic_publish(
        exchange="eai.claim",
        routing_key="claim",
        body=body,
        properties=pika.BasicProperties(
            delivery_mode=2,
            message_id=guid,
            content_type="application/json",
        ),
        mandatory=True,
    )
    print("published and confirmed")
except pika.exceptions.UnroutableError:
    print("unroutable!")
    ok = False
except pika.exceptions.NackError:
    print("nacked!")
    ok = False

connection.close()

if ok:
    sys.exit(0)
else:
    sys.exit(1)
