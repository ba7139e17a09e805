#!/usr/bin/env python3
"""python3 publish.py CLAIM_JSON_FILE  — 청구 하나를 eai.claim 으로 발행 (발행 확인, mandatory)."""

import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError


def main():
    if len(sys.argv) != 2:
        print("usage: publish.py CLAIM_JSON_FILE", file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        claim = json.load(f)

    conn = pika.BlockingConnection(
        pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
    )
    ch = conn.channel()
    ch.confirm_delivery()
    props = pika.BasicProperties(delivery_mode=2, message_id=claim["guid"], content_type="application/json")
    try:
        ch.basic_publish("eai.claim", "claim", str(claim).encode("utf-8"), props, mandatory=True)
    except UnroutableError:
        print("라우팅 불가", file=sys.stderr)
        return 1
    except NackError:
        print("브로커가 거절", file=sys.stderr)
        return 1
    finally:
        conn.close()
    print("발행:", claim["guid"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
