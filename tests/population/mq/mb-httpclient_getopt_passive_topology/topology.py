#!/usr/bin/env python3
# topology.py - declare what is missing, leave what exists alone
import os
import sys

import pika
import pika.exceptions

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

conn = pika.BlockingConnection(pika.URLParameters(URL))


def exists(kind, name):
    """passive declare on a scratch channel (a 404 closes the channel)"""
    ch = conn.channel()
    try:
        if kind == "exchange":
            ch.exchange_declare(name, passive=True)
        else:
            ch.queue_declare(name, passive=True)
        ch.close()
        return True
    except pika.exceptions.ChannelClosedByBroker as e:
        if e.reply_code != 404:
            raise
        return False


ch = conn.channel()
for ex in ("eai.claim", "eai.dlx"):
    state = "exists" if exists("exchange", ex) else "created"
    # declaring again with the same attributes is a no-op, and it verifies them (406 otherwise)
    ch.exchange_declare(ex, exchange_type="direct", durable=True)
    print(f"exchange {ex:<10} {state}")

queues = {
    "claim.in": {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"},
    "claim.dead": {},
}
for q, qargs in queues.items():
    state = "exists" if exists("queue", q) else "created"
    ok = ch.queue_declare(q, durable=True, arguments=qargs or None)
    print(f"queue    {q:<10} {state} ({ok.method.message_count} messages)")

ch.queue_bind(queue="claim.in", exchange="eai.claim", routing_key="claim")
ch.queue_bind(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")
print("bindings eai.claim->claim.in [claim], eai.dlx->claim.dead [claim.dead]")
conn.close()
sys.exit(0)
