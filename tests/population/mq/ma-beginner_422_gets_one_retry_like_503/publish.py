import os
import sys
import json
import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

file_name = sys.argv[1]
f = open(file_name, "rb")
body = f.read()
f.close()

claim = json.loads(body)

conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
ch = conn.channel()
ch.confirm_delivery()

try:
    ch.basic_publish(
        exchange="eai.claim",
        routing_key="claim",
        body=body,
        properties=pika.BasicProperties(
            delivery_mode=2,
            message_id=claim["guid"],
            content_type="application/json",
        ),
        mandatory=True,
    )
except pika.exceptions.UnroutableError:
    print("ERROR unroutable")
    sys.exit(1)
except pika.exceptions.NackError:
    print("ERROR nack")
    sys.exit(1)

print("OK", claim["guid"])
conn.close()
