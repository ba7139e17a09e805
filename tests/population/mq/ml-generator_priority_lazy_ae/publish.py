"""Usage: python3 publish.py claim.json

Publishes the file as it is to eai.claim with routing key claim, persistent, with publisher
confirms and mandatory. Exit 0 only when the broker confirmed; 1 unroutable, 2 nacked.
"""
import json
import os
import sys

import pika

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

if len(sys.argv) != 2:
    raise SystemExit("usage: publish.py CLAIM_JSON_FILE")

body = open(sys.argv[1], "rb").read()
claim = json.loads(body)

# priority 0-9 by amount: the claims department wants big ones first
amount = claim.get("amount")
if isinstance(amount, (int, float)) and not isinstance(amount, bool):
    priority = 9 if amount >= 5_000_000 else 7 if amount >= 1_000_000 else 5 if amount >= 500_000 else 3
else:
    priority = 3

headers = {"x-source": "publish.py", "x-claim-id": str(claim.get("claimId", "")),
           "x-policy-no": str(claim.get("policyNo", ""))}

props = pika.BasicProperties(
    content_type="application/json",
    delivery_mode=2,
    message_id=claim["guid"],
    priority=priority,
    headers=headers,
)

connection = pika.BlockingConnection(pika.URLParameters(url))
channel = connection.channel()
channel.confirm_delivery()
exit_code = 0
try:
    channel.basic_publish("eai.claim", "claim", body, props, mandatory=True)
    print(f"published {claim['guid']} priority={priority}")
except pika.exceptions.UnroutableError:
    print("UNROUTABLE: eai.claim has no binding for 'claim'", file=sys.stderr)
    exit_code = 1
except pika.exceptions.NackError:
    print("NACK: the broker refused the message", file=sys.stderr)
    exit_code = 2
finally:
    connection.close()
sys.exit(exit_code)
