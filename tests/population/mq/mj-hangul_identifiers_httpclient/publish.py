#!/usr/bin/env python3
# publish.py <청구JSON파일> — 발행 확인 + mandatory. 성공 0, 라우팅 불가 3, 브로커 거절 4, 사용법/파일 오류 2
import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError

주소 = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def 발행(파일):
    with open(파일, encoding="utf-8") as f:
        원문 = f.read()
    청구 = json.loads(원문)
    # 본문: 파일의 JSON 그대로 (UTF-8 로 다시 인코딩 — 파일이 UTF-8 이므로 바이트도 같다)
    본문 = 원문.encode("utf-8")
    속성 = pika.BasicProperties(
        delivery_mode=2,
        message_id=str(청구["guid"]),
        content_type="application/json",
        content_encoding="utf-8",
        app_id="eaimw-publish",
    )
    연결 = pika.BlockingConnection(pika.URLParameters(주소))
    try:
        채널 = 연결.channel()
        채널.confirm_delivery()
        채널.basic_publish("eai.claim", "claim", 본문, 속성, mandatory=True)
    finally:
        if 연결.is_open:
            연결.close()
    return 청구["guid"]


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("사용법: publish.py <청구JSON파일>", file=sys.stderr)
        sys.exit(2)
    try:
        guid = 발행(sys.argv[1])
    except UnroutableError:
        print("라우팅 불가 (eai.claim 에 claim 키로 묶인 큐가 없음)", file=sys.stderr)
        sys.exit(3)
    except NackError:
        print("브로커가 거절함 (nack)", file=sys.stderr)
        sys.exit(4)
    except (OSError, ValueError, KeyError) as 오류:
        print(f"청구 파일 오류: {오류}", file=sys.stderr)
        sys.exit(2)
    print("발행 확인:", guid)
