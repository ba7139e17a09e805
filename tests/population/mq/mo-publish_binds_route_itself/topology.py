#!/usr/bin/env python3
"""topology for the claim flow (safe to re-run: same properties -> no-op)"""
import os

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
CLAIM_IN_ARGS = {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"}

conn = pika.BlockingConnection(pika.URLParameters(URL))
ch = conn.channel()
ch.exchange_declare("eai.claim", "direct", durable=True)
ch.exchange_declare("eai.dlx", "direct", durable=True)
ch.queue_declare("claim.in", durable=True, arguments=CLAIM_IN_ARGS)
ch.queue_declare("claim.dead", durable=True)
ch.queue_bind("claim.in", "eai.claim", "claim")
ch.queue_bind("claim.dead", "eai.dlx", "claim.dead")
conn.close()
print("ok")
