# 토폴로지 선언 스크립트
import os
import sys

import pika


def main():
    url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    conn = pika.BlockingConnection(pika.URLParameters(url))
    ch = conn.channel()
    # 교환기 두 개 (direct, durable)
    for 이름 in ("eai.claim", "eai.dlx"):
        ch.exchange_declare(exchange=이름, exchange_type="direct", durable=True)
    # 큐 두 개 (durable), claim.in 에는 DLX 인자
    ch.queue_declare(queue="claim.in", durable=True,
                     arguments={"x-dead-letter-exchange": "eai.dlx",
                                "x-dead-letter-routing-key": "claim.dead"})
    ch.queue_declare(queue="claim.dead", durable=True)
    # 바인딩
    ch.queue_bind("claim.in", "eai.claim", routing_key="claim")
    ch.queue_bind("claim.dead", "eai.dlx", routing_key="claim.dead")
    conn.close()
    print("토폴로지 준비 완료")
    return 0


if __name__ == "__main__":
    sys.exit(main())
