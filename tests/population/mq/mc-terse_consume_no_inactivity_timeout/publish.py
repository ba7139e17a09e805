import json
import os
import sys
import pika

body = open(sys.argv[1], "rb").read()
conn = pika.BlockingConnection(pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
ch = conn.channel()
ch.confirm_delivery()
try:
    ch.basic_publish(exchange="eai.claim", routing_key="claim", body=body, mandatory=True,
                     properties=pika.BasicProperties(delivery_mode=2, content_type="application/json",
                                                     message_id=json.loads(body)["guid"]))
except pika.exceptions.UnroutableError:
    print("unroutable")
    sys.exit(1)
except pika.exceptions.NackError:
    print("nacked")
    sys.exit(1)
conn.close()
print("sent")
