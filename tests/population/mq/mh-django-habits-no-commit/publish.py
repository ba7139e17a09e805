#!/usr/bin/env python3
# 3단계: 청구 JSON 을 그대로 본문으로 발행 (발행 확인 + mandatory)
import json
import logging
import os
import sys

import pika

logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
logging.getLogger("pika").setLevel(logging.WARNING)
log = logging.getLogger("publish")

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main():
    if len(sys.argv) != 2:
        log.error("사용법: publish.py <청구JSON파일>")
        return 2
    with open(sys.argv[1], "rb") as f:
        body = f.read()
    guid = json.loads(body)["guid"]

    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.confirm_delivery()
    rc = 0
    try:
        ch.basic_publish(
            exchange="eai.claim",
            routing_key="claim",
            body=body,
            properties=pika.BasicProperties(
                delivery_mode=2,
                message_id=guid,
                content_type="application/json",
            ),
            mandatory=True,
        )
        log.info("발행 확인됨: %s", guid)
    except pika.exceptions.UnroutableError:
        log.error("라우팅 불가: %s", guid)
        rc = 1
    except pika.exceptions.NackError:
        log.error("브로커 nack: %s", guid)
        rc = 1
    finally:
        conn.close()
    return rc


if __name__ == "__main__":
    sys.exit(main())
