#!/usr/bin/env python3
# 토폴로지 선언 — 같은 속성으로 다시 선언하면 아무 일도 없다 (멱등)
import os
import pika

EXCHANGES = ["eai.claim", "eai.dlx"]
QUEUES = {
    "claim.in": {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"},
    "claim.dead": None,
}
BINDINGS = [("eai.claim", "claim.in", "claim"), ("eai.dlx", "claim.dead", "claim.dead")]


def main():
    url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    conn = pika.BlockingConnection(pika.URLParameters(url))
    try:
        ch = conn.channel()
        for name in EXCHANGES:
            ch.exchange_declare(name, exchange_type="direct", durable=True)
        for name, args in QUEUES.items():
            ch.queue_declare(name, durable=True, arguments=args)
        for exchange, queue, key in BINDINGS:
            ch.queue_bind(queue, exchange, routing_key=key)
    finally:
        conn.close()


if __name__ == "__main__":
    main()
