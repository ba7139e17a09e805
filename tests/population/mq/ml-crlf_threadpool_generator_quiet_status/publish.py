# publish.py <claim.json> - publish one claim, confirmed, mandatory.
import json
import os
import sys
import time

import pika

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

if len(sys.argv) != 2:
    sys.stderr.write("usage: publish.py <claim.json>\n")
    sys.exit(2)

with open(sys.argv[1], "rb") as f:
    payload = f.read()
claim = json.loads(payload)

params = pika.URLParameters(url)
props = pika.BasicProperties(
    content_type="application/json",
    delivery_mode=2,
    message_id=claim["guid"],
    user_id=params.credentials.username,   # validated by the broker: who published this
    timestamp=int(time.time()),
    headers={"claim_id": claim.get("claimId"), "policy_no": claim.get("policyNo")},
)

with pika.BlockingConnection(params) as conn:
    ch = conn.channel()
    ch.confirm_delivery()
    try:
        ch.basic_publish("eai.claim", "claim", payload, props, mandatory=True)
    except pika.exceptions.UnroutableError:
        sys.stderr.write("unroutable: nothing bound to eai.claim for 'claim'\n")
        sys.exit(4)
    except pika.exceptions.NackError:
        sys.stderr.write("nacked by the broker\n")
        sys.exit(5)
print("confirmed", claim["guid"])
