#!/usr/bin/env python3
"""청구 JSON 파일 하나를 eai.claim 에 발행한다 (발행 확인 + mandatory)."""

import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main():
    if len(sys.argv) != 2:
        print("사용법: publish.py 청구JSON파일", file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        claim = json.load(f)
    body = json.dumps(claim)  # 파싱한 JSON 을 다시 직렬화: 값은 같다

    props = pika.BasicProperties(
        content_type="application/json",
        delivery_mode=2,
        message_id=claim["guid"],
    )
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.confirm_delivery()
    try:
        ch.basic_publish(
            exchange="eai.claim", routing_key="claim", body=body, properties=props, mandatory=True
        )
    except UnroutableError:
        print("라우팅 불가: claim 키로 묶인 큐가 없음", file=sys.stderr)
        return 3
    except NackError:
        print("브로커가 거절(nack)함", file=sys.stderr)
        return 4
    finally:
        conn.close()
    print("발행 확인:", claim["guid"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
