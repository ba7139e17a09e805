"""Step 2: exchanges, queues, DLX, bindings."""
import os

import pika

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
conn = pika.BlockingConnection(pika.URLParameters(url))
ch = conn.channel()

ch.exchange_declare(exchange="eai.claim", exchange_type="direct", durable=True)
ch.exchange_declare(exchange="eai.dlx", exchange_type="direct", durable=True)

# I first declared claim.in without the DLX arguments and every run after that died
# with 406 PRECONDITION_FAILED (inequivalent arg 'x-dead-letter-exchange').
# Deleting it first makes the script work no matter what was declared before.
ch.queue_delete(queue="claim.in")
ch.queue_declare(
    queue="claim.in",
    durable=True,
    arguments={"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"},
)
ch.queue_declare(queue="claim.dead", durable=True)

ch.queue_bind(queue="claim.in", exchange="eai.claim", routing_key="claim")
ch.queue_bind(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")
conn.close()
print("topology ready")
