import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError

URL = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

path = sys.argv[1]
with open(path, "rb") as f:
    body = f.read()
guid = json.loads(body)["guid"]

conn = pika.BlockingConnection(pika.URLParameters(URL))
ch = conn.channel()
ch.confirm_delivery()
rc = 0
try:
    ch.basic_publish("eai.claim", "claim", body,
                     pika.BasicProperties(content_type="application/json", delivery_mode=2, message_id=guid),
                     mandatory=True)
    print("confirmed:", guid)
except UnroutableError:
    print("unroutable:", guid, file=sys.stderr)
    rc = 2
except NackError:
    print("nacked:", guid, file=sys.stderr)
    rc = 3
conn.close()
sys.exit(rc)
