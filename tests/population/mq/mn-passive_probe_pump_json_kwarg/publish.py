"""publish.py CLAIM_JSON_FILE"""
import argparse
import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

EXIT_UNROUTABLE = 10
EXIT_NACKED = 11

ap = argparse.ArgumentParser(description="publish one claim to eai.claim")
ap.add_argument("claim_file")
args = ap.parse_args()

with open(args.claim_file, "rb") as fp:
    payload = fp.read()
claim = json.loads(payload)

conn = pika.BlockingConnection(pika.URLParameters(URL))
chan = conn.channel()
chan.confirm_delivery()
try:
    chan.basic_publish(
        exchange="eai.claim",
        routing_key="claim",
        body=payload,
        mandatory=True,
        properties=pika.BasicProperties(
            delivery_mode=pika.spec.PERSISTENT_DELIVERY_MODE,
            content_type="application/json",
            message_id=claim["guid"],
        ),
    )
except UnroutableError:
    print("UNROUTABLE", claim["guid"], file=sys.stderr)
    conn.close()
    sys.exit(EXIT_UNROUTABLE)
except NackError:
    print("NACKED", claim["guid"], file=sys.stderr)
    conn.close()
    sys.exit(EXIT_NACKED)
conn.close()
print("OK", claim["guid"])
