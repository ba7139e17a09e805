# topology.py - exchanges / queues / bindings of the claim flow. Idempotent.
import os

import pika

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

with pika.BlockingConnection(pika.URLParameters(url)) as conn:
    ch = conn.channel()
    ch.exchange_declare(exchange="eai.claim", exchange_type="direct", durable=True)
    ch.exchange_declare(exchange="eai.dlx", exchange_type="direct", durable=True)
    ch.queue_declare(queue="claim.in", durable=True, arguments={
        "x-dead-letter-exchange": "eai.dlx",
        "x-dead-letter-routing-key": "claim.dead",
    })
    ch.queue_declare(queue="claim.dead", durable=True)
    # audit copy of every dead letter, kept 30 days, capped; claim.dead is never touched by it
    ch.queue_declare(queue="claim.dead.audit", durable=True, arguments={
        "x-message-ttl": 30 * 24 * 3600 * 1000,
        "x-max-length": 100000,
    })
    ch.queue_bind(queue="claim.in", exchange="eai.claim", routing_key="claim")
    ch.queue_bind(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")
    ch.queue_bind(queue="claim.dead.audit", exchange="eai.dlx", routing_key="claim.dead")
print("topology ready")
