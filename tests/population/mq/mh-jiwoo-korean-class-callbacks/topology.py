#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""claim 토폴로지 선언 (교환기 2, 큐 2, 바인딩 2).

선언은 멱등이라 두 번 돌려도 같은 속성이면 아무 일도 없다.
(속성이 다르면 406 PRECONDITION_FAILED 로 채널이 닫히니 인자를 정확히 맞춘다.)
"""
import os
import sys

import pika

DEFAULT_URL = "amqp://guest:guest@127.0.0.1:5672/%2F"

# 선언할 것들을 표로 정리해 두고 돌린다
EXCHANGES = [
    {"exchange": "eai.claim", "exchange_type": "direct", "durable": True},
    {"exchange": "eai.dlx", "exchange_type": "direct", "durable": True},
]
QUEUES = [
    {
        "queue": "claim.in",
        "durable": True,
        "arguments": {
            "x-dead-letter-exchange": "eai.dlx",
            "x-dead-letter-routing-key": "claim.dead",
        },
    },
    {"queue": "claim.dead", "durable": True},
]
BINDINGS = [
    {"queue": "claim.in", "exchange": "eai.claim", "routing_key": "claim"},
    {"queue": "claim.dead", "exchange": "eai.dlx", "routing_key": "claim.dead"},
]


def main():
    url = os.environ.get("EAI_AMQP_URL", DEFAULT_URL)
    conn = pika.BlockingConnection(pika.URLParameters(url))
    try:
        ch = conn.channel()
        for ex in EXCHANGES:
            ch.exchange_declare(**ex)
            print("exchange ok:", ex["exchange"])
        for q in QUEUES:
            ok = ch.queue_declare(**q)
            # 이미 있던 큐면 메시지 수가 그대로 보인다 (지워지지 않았는지 확인용)
            print("queue ok: %s (messages=%d)" % (q["queue"], ok.method.message_count))
        for b in BINDINGS:
            ch.queue_bind(**b)
            print("binding ok: %s -> %s [%s]" % (b["exchange"], b["queue"], b["routing_key"]))
    finally:
        conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
