#!/usr/bin/env python3
import json, os, sys, time
import pika
from pika.exceptions import NackError, UnroutableError

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
body = open(sys.argv[1], "rb").read()
guid = json.loads(body)["guid"]

c = pika.BlockingConnection(pika.URLParameters(url))
ch = c.channel()
ch.confirm_delivery()
props = pika.BasicProperties(delivery_mode=2, message_id=guid, content_type="application/json")

for attempt in range(1, 4):
    try:
        ch.basic_publish("eai.claim", "claim", body, props, mandatory=True)
        print("confirmed", guid)
        break
    except UnroutableError:
        print("unroutable", guid, file=sys.stderr)
        c.close()
        sys.exit(1)
    except NackError:
        # broker said no (resource alarm / queue full?) - give it a moment and try again
        print(f"nack, attempt {attempt}/3", file=sys.stderr)
        time.sleep(0.5 * attempt)
c.close()
