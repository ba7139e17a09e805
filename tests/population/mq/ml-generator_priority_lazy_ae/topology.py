"""Declare exchanges, queues and bindings for the claim flow. Safe to re-run.

Beyond the lab's list (habits from work):
  * claim.in is a priority queue (x-max-priority 10) so big claims can overtake; the two
    DLX arguments are there exactly as the lab gives them.
  * claim.dead is a lazy queue: a DLQ can grow large and should live on disk.
  * eai.dlx has an alternate exchange, so a dead letter with an unexpected routing key is
    parked in claim.dead.unrouted instead of vanishing.
"""
import os

import pika

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

TOPOLOGY = {
    "exchanges": [
        {"name": "eai.dlx.ae", "type": "fanout", "arguments": {}},
        {"name": "eai.claim", "type": "direct", "arguments": {}},
        {"name": "eai.dlx", "type": "direct", "arguments": {"alternate-exchange": "eai.dlx.ae"}},
    ],
    "queues": [
        {"name": "claim.in", "arguments": {
            "x-dead-letter-exchange": "eai.dlx",
            "x-dead-letter-routing-key": "claim.dead",
            "x-max-priority": 10,
        }},
        {"name": "claim.dead", "arguments": {"x-queue-mode": "lazy"}},
        {"name": "claim.dead.unrouted", "arguments": {"x-queue-mode": "lazy"}},
    ],
    "bindings": [
        {"exchange": "eai.claim", "queue": "claim.in", "key": "claim"},
        {"exchange": "eai.dlx", "queue": "claim.dead", "key": "claim.dead"},
        {"exchange": "eai.dlx.ae", "queue": "claim.dead.unrouted", "key": ""},
    ],
}

connection = pika.BlockingConnection(pika.URLParameters(url))
channel = connection.channel()
for ex in TOPOLOGY["exchanges"]:
    channel.exchange_declare(ex["name"], exchange_type=ex["type"], durable=True,
                             arguments=ex["arguments"] or None)
for q in TOPOLOGY["queues"]:
    channel.queue_declare(q["name"], durable=True, arguments=q["arguments"])
for b in TOPOLOGY["bindings"]:
    channel.queue_bind(b["queue"], b["exchange"], routing_key=b["key"])
connection.close()
print("topology ok:", ", ".join(q["name"] for q in TOPOLOGY["queues"]))
