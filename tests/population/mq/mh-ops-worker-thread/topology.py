#!/usr/bin/env python3
"""Declare the claim topology.

Existing objects are checked passively first and left alone; only missing ones are
declared. A passive check on a missing object closes the channel (404), so every
check gets a fresh channel. Running it twice is therefore harmless.
"""
from __future__ import annotations

import sys

import pika
from pika.exceptions import ChannelClosedByBroker

from common import DEAD_KEY, DLX, EXCHANGE, QUEUE_DEAD, QUEUE_IN, ROUTING_KEY, Settings, log

EXCHANGES = [(EXCHANGE, "direct"), (DLX, "direct")]
QUEUES = [
    (QUEUE_IN, {"x-dead-letter-exchange": DLX, "x-dead-letter-routing-key": DEAD_KEY}),
    (QUEUE_DEAD, None),
]
BINDINGS = [(QUEUE_IN, EXCHANGE, ROUTING_KEY), (QUEUE_DEAD, DLX, DEAD_KEY)]


def exists(conn, kind: str, name: str) -> bool:
    ch = conn.channel()
    try:
        if kind == "exchange":
            ch.exchange_declare(name, passive=True)
        else:
            ch.queue_declare(name, passive=True)
    except ChannelClosedByBroker as exc:
        if exc.reply_code == 404:
            return False
        raise
    ch.close()
    return True


def main() -> int:
    cfg = Settings()
    conn = pika.BlockingConnection(pika.URLParameters(cfg.amqp_url))
    try:
        for name, kind in EXCHANGES:
            if exists(conn, "exchange", name):
                log("exchange.exists", name=name)
                continue
            conn.channel().exchange_declare(name, exchange_type=kind, durable=True)
            log("exchange.declared", name=name, type=kind)
        for name, args in QUEUES:
            if exists(conn, "queue", name):
                log("queue.exists", name=name)
                continue
            conn.channel().queue_declare(name, durable=True, arguments=args)
            log("queue.declared", name=name, arguments=args)
        ch = conn.channel()
        for queue, exchange, key in BINDINGS:
            ch.queue_bind(queue=queue, exchange=exchange, routing_key=key)  # binding twice is a no-op
            log("binding", exchange=exchange, queue=queue, key=key)
    finally:
        conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
