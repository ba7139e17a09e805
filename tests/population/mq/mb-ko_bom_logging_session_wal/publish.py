"""사용법: python3 publish.py <청구JSON파일>

발행 확인(confirm) + mandatory. 라우팅 불가 -> 종료코드 3, 브로커 거절(nack) -> 4.
"""
import json
import logging
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError

logging.basicConfig(level=logging.INFO, format="%(asctime)s [발행] %(levelname)s %(message)s")
log = logging.getLogger()
logging.getLogger("pika").setLevel(logging.WARNING)  # pika 로그는 너무 많다


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    본문 = open(argv[1], "rb").read()
    청구 = json.loads(본문)

    속성 = pika.BasicProperties(
        content_type="application/json",
        delivery_mode=pika.DeliveryMode.Persistent,
        message_id=청구["guid"],
    )
    url = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    with pika.BlockingConnection(pika.URLParameters(url)) as conn:
        ch = conn.channel()
        ch.confirm_delivery()
        try:
            ch.basic_publish("eai.claim", "claim", 본문, 속성, mandatory=True)
        except UnroutableError:
            log.error("라우팅 불가: %s (claim 키로 묶인 큐가 없음)", 청구["guid"])
            return 3
        except NackError:
            log.error("브로커가 거절(nack): %s", 청구["guid"])
            return 4
    log.info("발행 확인 받음: %s %s", 청구.get("claimId"), 청구["guid"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
