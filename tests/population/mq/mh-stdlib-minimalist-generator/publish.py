#!/usr/bin/env python3
# publish.py FILE  -- one claim to eai.claim/claim, confirmed, mandatory
import json
import os
import sys
import pika

if len(sys.argv) != 2:
    sys.exit("usage: publish.py CLAIM_JSON_FILE")
with open(sys.argv[1], encoding="utf-8") as f:
    claim = json.load(f)
# normalise: compact, keep hangul readable (same JSON value as the file)
body = json.dumps(claim, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
conn = pika.BlockingConnection(pika.URLParameters(url))
ch = conn.channel()
ch.confirm_delivery()
try:
    ch.basic_publish("eai.claim", "claim", body,
                     pika.BasicProperties(delivery_mode=2,
                                          message_id=claim["guid"],
                                          content_type="application/json"),
                     mandatory=True)
except pika.exceptions.UnroutableError:
    sys.exit("unroutable: nothing bound to eai.claim/claim")  # exit status 1
except pika.exceptions.NackError:
    sys.exit("nacked by broker")  # exit status 1
finally:
    if conn.is_open:
        conn.close()
print("published", claim["guid"])
