# -*- coding: utf-8 -*-
# 3단계: python3 publish.py <청구JSON파일>
import json
import os
import sys

import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main(argv):
    if len(argv) != 2:
        print("사용법: publish.py <청구JSON파일>", file=sys.stderr)
        return 2
    with open(argv[1], "rb") as f:
        body = f.read()
    guid = json.loads(body.decode("utf-8"))["guid"]

    conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    ch = conn.channel()
    ch.confirm_delivery()
    props = pika.BasicProperties(
        delivery_mode=2,
        message_id=guid,
        content_type="application/json",
    )
    try:
        ch.basic_publish(exchange="eai.claim", routing_key="claim", body=body,
                         properties=props, mandatory=True)
    except pika.exceptions.UnroutableError:
        print("라우팅 불가:", guid, file=sys.stderr)
        return 1
    except pika.exceptions.NackError:
        print("브로커 거절(nack):", guid, file=sys.stderr)
        return 1
    finally:
        conn.close()
    print("발행 확인:", guid)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
