# -*- coding: utf-8 -*-
# 2단계: 토폴로지 (두 번 돌려도 같은 속성이면 오류 없음)
import os
import pika

주소 = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def 선언(ch):
    ch.exchange_declare(exchange="eai.claim", exchange_type="direct", durable=True)
    ch.exchange_declare(exchange="eai.dlx", exchange_type="direct", durable=True)
    ch.queue_declare(queue="claim.in", durable=True, arguments={
        "x-dead-letter-exchange": "eai.dlx",          # 거절되면 여기로
        "x-dead-letter-routing-key": "claim.dead",
    })
    ch.queue_declare(queue="claim.dead", durable=True)
    ch.queue_bind(queue="claim.in", exchange="eai.claim", routing_key="claim")
    ch.queue_bind(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")


if __name__ == "__main__":
    연결 = pika.BlockingConnection(pika.URLParameters(주소))
    선언(연결.channel())
    연결.close()
    print("[토폴로지] 교환기 2, 큐 2, 바인딩 2 선언 완료")
