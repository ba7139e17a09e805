# python3 publish.py claim.json
import json
import sys

import pika
from mqcommon import CLAIM_EXCHANGE, IN_KEY, connect

if len(sys.argv) < 2:
    sys.exit("usage: publish.py CLAIM_JSON_FILE")

with open(sys.argv[1], "rb") as f:
    payload = f.read()
claim = json.loads(payload)

conn = connect()
ch = conn.channel()
ch.confirm_delivery()  # like a JMS persistent send: wait for the receipt

props = pika.BasicProperties(
    delivery_mode=2,
    message_id=claim["guid"],
    content_type="application/json",
    correlation_id=claim.get("claimId"),
    headers={"claimId": claim.get("claimId"), "policyNo": claim.get("policyNo"), "sender": "publish.py"},
)

rc = 0
try:
    ch.basic_publish(CLAIM_EXCHANGE, IN_KEY, payload, props, mandatory=True)
    print("sent + confirmed:", claim["guid"])
except pika.exceptions.UnroutableError:
    print("ERROR: no queue bound for", IN_KEY, file=sys.stderr)
    rc = 2
except pika.exceptions.NackError:
    print("ERROR: broker nacked", claim["guid"], file=sys.stderr)
    rc = 3
conn.close()
sys.exit(rc)
