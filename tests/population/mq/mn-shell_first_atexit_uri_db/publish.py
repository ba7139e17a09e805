#!/usr/bin/env python3
# usage: ./publish.py claim.json      (exit 0 ok, 1 unroutable/nack/other error)
import json, os, pathlib, sys, pika

try:
    raw = pathlib.Path(sys.argv[1]).read_bytes()
    guid = json.loads(raw)["guid"]
    c = pika.BlockingConnection(pika.URLParameters(os.getenv("EAI_AMQP_URL") or "amqp://guest:guest@127.0.0.1:5672/%2F"))
    ch = c.channel()
    ch.confirm_delivery()
    ch.basic_publish("eai.claim", "claim", raw,
                     pika.BasicProperties(delivery_mode=2, message_id=guid, content_type="application/json"),
                     mandatory=True)
    c.close()
except Exception as e:
    print("publish failed:", type(e).__name__, e, file=sys.stderr)
    sys.exit(1)
print(guid)
