#!/usr/bin/env python3
import json
import os
import sys
import pika

body = open(sys.argv[1], "rb").read()
guid = json.loads(body)["guid"]
c = pika.BlockingConnection(pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
ch = c.channel()
ch.confirm_delivery()
try:
    ch.basic_publish("eai.claim", "claim", body,
                     pika.BasicProperties(delivery_mode=2, message_id=guid, content_type="application/json"),
                     mandatory=True)
except (pika.exceptions.UnroutableError, pika.exceptions.NackError) as e:
    c.close()
    sys.exit("NOT published %s: %r" % (guid, e))
c.close()
print("published", guid)
