#!/usr/bin/env python3
"""Declare the claim topology (idempotent: run it as often as you like)."""
import mqcommon as mq

with mq.connect() as conn:
    ch = conn.channel()
    for name in (mq.EXCHANGE, mq.DLX):
        ch.exchange_declare(name, "direct", durable=True)
    ch.queue_declare(mq.QUEUE, durable=True, arguments=mq.QUEUE_ARGS)
    ch.queue_declare(mq.DEAD_QUEUE, durable=True)
    ch.queue_bind(mq.QUEUE, mq.EXCHANGE, mq.ROUTING_KEY)
    ch.queue_bind(mq.DEAD_QUEUE, mq.DLX, mq.DEAD_KEY)
print("declared", mq.EXCHANGE, mq.DLX, mq.QUEUE, mq.DEAD_QUEUE)
