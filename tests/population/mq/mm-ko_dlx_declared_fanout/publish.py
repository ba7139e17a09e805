# 청구 JSON 파일 하나 발행: python3 publish.py <파일>
import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError


def main():
    if len(sys.argv) != 2:
        print("사용법: python3 publish.py <청구JSON파일>", file=sys.stderr)
        return 2

    with open(sys.argv[1], "rb") as f:
        body = f.read()           # 그대로 본문으로
    guid = json.loads(body)["guid"]

    url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    conn = pika.BlockingConnection(pika.URLParameters(url))
    ch = conn.channel()
    ch.confirm_delivery()         # 발행 확인

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
    except UnroutableError:
        print("라우팅 불가:", guid, file=sys.stderr)
        return 1
    except NackError:
        print("브로커 거절(nack):", guid, file=sys.stderr)
        return 1
    finally:
        conn.close()

    print("발행 완료(확인 받음):", guid)
    return 0


if __name__ == "__main__":
    sys.exit(main())
