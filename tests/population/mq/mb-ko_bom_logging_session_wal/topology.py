"""토폴로지: eai.claim / eai.dlx 교환기, claim.in / claim.dead 큐, 바인딩 두 개."""
import logging
import os

import pika

logging.basicConfig(level=logging.INFO, format="%(asctime)s [토폴로지] %(message)s")
log = logging.getLogger()
logging.getLogger("pika").setLevel(logging.WARNING)  # pika 로그는 너무 많다

교환기 = {"eai.claim": "direct", "eai.dlx": "direct"}
큐 = {
    "claim.in": {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"},
    "claim.dead": None,
}
바인딩 = [("eai.claim", "claim.in", "claim"), ("eai.dlx", "claim.dead", "claim.dead")]


def main():
    url = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    with pika.BlockingConnection(pika.URLParameters(url)) as conn:
        ch = conn.channel()
        for 이름, 종류 in 교환기.items():
            ch.exchange_declare(이름, 종류, durable=True)
            log.info("교환기 %s (%s, durable) 선언", 이름, 종류)
        for 이름, 인자 in 큐.items():
            결과 = ch.queue_declare(이름, durable=True, arguments=인자)
            log.info("큐 %s 선언 - 대기 메시지 %d건", 이름, 결과.method.message_count)
        for 교환, 대상, 키 in 바인딩:
            ch.queue_bind(대상, 교환, routing_key=키)
            log.info("바인딩 %s -> %s (키 %s)", 교환, 대상, 키)
    log.info("완료")


if __name__ == "__main__":
    main()
