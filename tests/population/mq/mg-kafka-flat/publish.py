#!/usr/bin/env python3
# usage: publish.py claim.json   -> exit 0 only when the broker confirmed and routed it
import json, os, sys, time
import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

raw = open(sys.argv[1], "rb").read()          # send the file as-is
guid = json.loads(raw)["guid"]

conn = pika.BlockingConnection(pika.URLParameters(URL))
ch = conn.channel()
ch.confirm_delivery()
props = pika.BasicProperties(
    content_type="application/json",
    content_encoding="utf-8",
    delivery_mode=pika.spec.PERSISTENT_DELIVERY_MODE,
    message_id=guid,
    timestamp=int(time.time()),
    app_id="eaimw-publish",
)
try:
    ch.basic_publish(exchange="eai.claim", routing_key="claim", body=raw, properties=props, mandatory=True)
except pika.exceptions.UnroutableError as e:
    sys.exit(f"unroutable: {e}")
except pika.exceptions.NackError as e:
    sys.exit(f"nacked by broker: {e}")
finally:
    if conn.is_open:
        conn.close()
print("confirmed", guid)
