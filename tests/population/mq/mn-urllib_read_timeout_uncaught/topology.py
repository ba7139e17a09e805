# -*- coding: utf-8 -*-
# 2단계: 교환기 2, 큐 2, 바인딩 2 (두 번 돌려도 같은 선언이라 안전)
import os

import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main():
    conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    ch = conn.channel()
    ch.exchange_declare(exchange="eai.claim", exchange_type="direct", durable=True)
    ch.exchange_declare(exchange="eai.dlx", exchange_type="direct", durable=True)
    dlx_args = {
        "x-dead-letter-exchange": "eai.dlx",
        "x-dead-letter-routing-key": "claim.dead",
    }
    ch.queue_declare(queue="claim.in", durable=True, arguments=dlx_args)
    ch.queue_declare(queue="claim.dead", durable=True)
    ch.queue_bind(exchange="eai.claim", queue="claim.in", routing_key="claim")
    ch.queue_bind(exchange="eai.dlx", queue="claim.dead", routing_key="claim.dead")
    conn.close()
    print("토폴로지 선언 완료")


if __name__ == "__main__":
    main()
