"""Declare the mq lab topology. Each object on its own channel: if one declaration
fails (406, different attributes) the message says exactly which one."""
import os
import sys

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

DECLARATIONS = [
    ("exchange eai.claim", lambda ch: ch.exchange_declare("eai.claim", "direct", durable=True)),
    ("exchange eai.dlx", lambda ch: ch.exchange_declare("eai.dlx", "direct", durable=True)),
    ("queue claim.in", lambda ch: ch.queue_declare("claim.in", durable=True, arguments={
        "x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"})),
    ("queue claim.dead", lambda ch: ch.queue_declare("claim.dead", durable=True)),
    ("binding eai.claim->claim.in", lambda ch: ch.queue_bind("claim.in", "eai.claim", "claim")),
    ("binding eai.dlx->claim.dead", lambda ch: ch.queue_bind("claim.dead", "eai.dlx", "claim.dead")),
]

conn = pika.BlockingConnection(pika.URLParameters(URL))
errors = 0
for what, declare in DECLARATIONS:
    ch = conn.channel()
    try:
        declare(ch)
        print("ok  ", what)
        ch.close()
    except pika.exceptions.ChannelClosedByBroker as e:
        print("FAIL", what, e.reply_code, e.reply_text, file=sys.stderr)
        errors += 1
conn.close()
sys.exit(1 if errors else 0)
