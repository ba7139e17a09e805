"""Claim topology. Re-declaring with identical properties is a no-op, so this is safe to rerun."""
import os

import pika

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
conn = pika.BlockingConnection(pika.URLParameters(url))
ch = conn.channel()

for name in ("eai.claim", "eai.dlx"):
    ch.exchange_declare(name, exchange_type="direct", durable=True, auto_delete=False, internal=False)

ch.queue_declare("claim.in", durable=True, exclusive=False, auto_delete=False, arguments={
    "x-dead-letter-exchange": "eai.dlx",
    "x-dead-letter-routing-key": "claim.dead",
})
# only one replay tool at a time may drain the DLQ
ch.queue_declare("claim.dead", durable=True, exclusive=False, auto_delete=False,
                 arguments={"x-single-active-consumer": True})

ch.queue_bind("claim.in", "eai.claim", routing_key="claim")
ch.queue_bind("claim.dead", "eai.dlx", routing_key="claim.dead")
conn.close()
