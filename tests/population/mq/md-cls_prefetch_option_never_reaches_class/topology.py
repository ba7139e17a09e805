#!/usr/bin/env python3
from mqcommon import open_channel

EXCHANGES = {"eai.claim": "direct", "eai.dlx": "direct"}
QUEUES = {
    "claim.in": {"x-dead-letter-exchange": "eai.dlx",
                 "x-dead-letter-routing-key": "claim.dead"},
    "claim.dead": None,
}
BINDINGS = [("eai.claim", "claim.in", "claim"), ("eai.dlx", "claim.dead", "claim.dead")]

conn, ch = open_channel()
for name, kind in EXCHANGES.items():
    ch.exchange_declare(name, kind, durable=True)
for name, arguments in QUEUES.items():
    ch.queue_declare(name, durable=True, arguments=arguments)
for exchange, queue, key in BINDINGS:
    ch.queue_bind(queue, exchange, routing_key=key)
conn.close()
print("topology ok")
