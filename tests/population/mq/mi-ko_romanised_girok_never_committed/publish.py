#!/usr/bin/env python3
# publish.py <cheonggu JSON pail> : balhaeng hwagin(발행 확인) + mandatory
import json
import os
import sys

import pika

jeopsok_juso = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def balhaeng(pail_gyeongno):
    with open(pail_gyeongno, "rb") as f:
        bonmun = f.read()
    cheonggu = json.loads(bonmun)

    yeongyeol = pika.BlockingConnection(pika.URLParameters(jeopsok_juso))
    chaeneol = yeongyeol.channel()
    chaeneol.confirm_delivery()
    sokseong = pika.BasicProperties(
        delivery_mode=2,
        message_id=cheonggu["guid"],
        content_type="application/json",
    )
    try:
        chaeneol.basic_publish(exchange="eai.claim", routing_key="claim", body=bonmun,
                               properties=sokseong, mandatory=True)
    except pika.exceptions.UnroutableError:
        print("raauting bulga (라우팅 불가)", file=sys.stderr)
        return 2
    except pika.exceptions.NackError:
        print("beurokeo georeul (브로커 거절, nack)", file=sys.stderr)
        return 3
    finally:
        yeongyeol.close()
    print("balhaeng seonggong (발행 성공):", cheonggu["guid"])
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("sayongbeop: publish.py <cheonggu.json>", file=sys.stderr)
        sys.exit(64)
    sys.exit(balhaeng(sys.argv[1]))
