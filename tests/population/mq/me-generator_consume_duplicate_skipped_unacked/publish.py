import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

path = sys.argv[1]
with open(path, "rb") as f:
    body = f.read()
guid = json.loads(body)["guid"]

conn = pika.BlockingConnection(pika.URLParameters(url))
ch = conn.channel()
ch.confirm_delivery()
try:
    ch.basic_publish(
        "eai.claim",
        "claim",
        body,
        pika.BasicProperties(delivery_mode=2, message_id=guid, content_type="application/json"),
        mandatory=True,
    )
except UnroutableError:
    print("unroutable", guid, file=sys.stderr)
    sys.exit(1)
except NackError:
    print("nacked", guid, file=sys.stderr)
    sys.exit(1)
finally:
    if conn.is_open:
        conn.close()
print("published", guid)
