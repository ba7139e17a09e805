import json
import os
import sys

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

body = open(sys.argv[1], "rb").read()
guid = json.loads(body)["guid"]

conn = pika.BlockingConnection(pika.URLParameters(URL))
ch = conn.channel()
ch.confirm_delivery()
try:
    ch.basic_publish("eai.claim", "claim", body,
                     pika.BasicProperties(delivery_mode=2, message_id=guid,
                                          content_type="application/json"),
                     mandatory=True)
except (pika.exceptions.UnroutableError, pika.exceptions.NackError) as e:
    print("발행 실패:", type(e).__name__)
    conn.close()
    sys.exit(1)
conn.close()
print("발행 OK", guid)
