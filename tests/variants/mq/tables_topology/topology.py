#!/usr/bin/env python3
"""토폴로지: 큐 먼저, 교환기, 바인딩, 그리고 passive 선언으로 확인."""

import os
import sys

import pika
from pika.exchange_type import ExchangeType

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

QUEUES = {
    "claim.dead": None,
    "claim.in": {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"},
}
EXCHANGES = ["eai.dlx", "eai.claim"]
BINDINGS = [("claim.dead", "eai.dlx", "claim.dead"), ("claim.in", "eai.claim", "claim")]


def main():
    with pika.BlockingConnection(pika.URLParameters(URL)) as conn:
        ch = conn.channel()
        for name, args in QUEUES.items():
            ch.queue_declare(queue=name, durable=True, arguments=args)
        for name in EXCHANGES:
            ch.exchange_declare(exchange=name, exchange_type=ExchangeType.direct, durable=True)
        for queue, exchange, key in BINDINGS:
            ch.queue_bind(queue=queue, exchange=exchange, routing_key=key)
        # 확인: 없으면 404 로 채널이 닫히고 예외가 난다
        for name in EXCHANGES:
            ch.exchange_declare(exchange=name, passive=True)
        for name in QUEUES:
            ok = ch.queue_declare(queue=name, passive=True)
            print(f"{name}: ready {ok.method.message_count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
