import os
import sys
import json
import pika

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

if len(sys.argv) < 2:
    print("usage: python3 publish.py claim.json")
    sys.exit(1)

f = open(sys.argv[1], encoding="utf-8")
text = f.read()
f.close()
claim = json.loads(text)
guid = claim["guid"]

conn = pika.BlockingConnection(pika.URLParameters(url))
ch = conn.channel()
ch.confirm_delivery()

props = pika.BasicProperties(delivery_mode=2, message_id=guid, content_type="application/json")

try:
    ch.basic_publish(exchange="eai.claim", routing_key="claim", body=text, properties=props, mandatory=True)
except pika.exceptions.UnroutableError:
    print("ERROR: message could not be routed")
    conn.close()
    sys.exit(1)
except pika.exceptions.NackError:
    print("ERROR: broker did not accept the message")
    conn.close()
    sys.exit(1)

print("published", guid)
conn.close()
