#!/usr/bin/env python3
"""청구 파일을 읽어 확인한 뒤 eai.claim 으로 보낸다."""

import argparse
import json
import os
import sys

import pika
import pika.exceptions

EXCHANGE = "eai.claim"
ROUTING_KEY = "claim"


def load_claim(path):
    with open(path, "rb") as f:
        raw = f.read()
    claim = json.loads(raw)
    for field in ("guid", "claimId", "docs"):
        if not claim.get(field):
            raise ValueError(f"청구에 {field} 가 없음")
    return raw, claim


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    args = parser.parse_args()
    try:
        raw, claim = load_claim(args.file)
    except (OSError, ValueError) as e:
        print(f"보내지 않음: {e}", file=sys.stderr)
        return 1

    params = pika.URLParameters(os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
    with pika.BlockingConnection(params) as connection:
        channel = connection.channel()
        channel.confirm_delivery()
        try:
            channel.basic_publish(
                exchange=EXCHANGE,
                routing_key=ROUTING_KEY,
                body=raw,
                properties=pika.BasicProperties(
                    content_type="application/json", delivery_mode=2, message_id=claim["guid"]
                ),
                mandatory=True,
            )
        except (pika.exceptions.UnroutableError, pika.exceptions.NackError) as e:
            print(f"발행 실패: {e!r}", file=sys.stderr)
            return 1
    print(f"{claim['claimId']} 발행 완료")
    return 0


if __name__ == "__main__":
    sys.exit(main())
