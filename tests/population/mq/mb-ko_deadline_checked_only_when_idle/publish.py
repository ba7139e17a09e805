# 청구 발행: python3 publish.py <청구JSON파일>
import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError


def main():
    if len(sys.argv) != 2:
        print("사용법: python3 publish.py <청구JSON파일>", file=sys.stderr)
        return 2
    본문 = open(sys.argv[1], "rb").read()
    guid = json.loads(본문)["guid"]
    url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    conn = pika.BlockingConnection(pika.URLParameters(url))
    ch = conn.channel()
    ch.confirm_delivery()
    결과 = 0
    try:
        ch.basic_publish("eai.claim", "claim", 본문,
                         pika.BasicProperties(delivery_mode=2, message_id=guid,
                                              content_type="application/json"),
                         mandatory=True)
        print("발행 확인:", guid)
    except UnroutableError:
        print("라우팅 불가:", guid, file=sys.stderr)
        결과 = 1
    except NackError:
        print("브로커 거절:", guid, file=sys.stderr)
        결과 = 1
    conn.close()
    return 결과


if __name__ == "__main__":
    sys.exit(main())
