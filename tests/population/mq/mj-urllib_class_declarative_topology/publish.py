#!/usr/bin/env python3
import json, os, sys, pika
raw = open(sys.argv[1], "rb").read()
p = pika.BasicProperties(delivery_mode=pika.spec.PERSISTENT_DELIVERY_MODE,
                         message_id=json.loads(raw.decode("utf-8-sig"))["guid"],
                         content_type="application/json")
c = pika.BlockingConnection(pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
ch = c.channel(); ch.confirm_delivery()
try:
    ch.basic_publish("eai.claim", "claim", raw, p, mandatory=True)
except (pika.exceptions.UnroutableError, pika.exceptions.NackError) as e:
    sys.exit(f"not published: {type(e).__name__}")   # message to stderr, exit status 1
finally:
    c.close()
