"""publish.py CLAIM_JSON_FILE"""
import json
import os
import sys
import time

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main():
    raw = open(sys.argv[1], "rb").read()
    claim = json.loads(raw)
    props = pika.BasicProperties(
        delivery_mode=2,
        message_id=claim["guid"],
        content_type="application/json",
        timestamp=int(time.time()),
        app_id="publish.py",
        headers={"x-claim-id": claim.get("claimId"), "x-amount": claim.get("amount"), "x-retry-policy": "once"},
    )
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.confirm_delivery()
    try:
        ch.basic_publish("eai.claim", "claim", raw, props, mandatory=True)
    except pika.exceptions.UnroutableError:
        print("UNROUTABLE", claim["guid"], file=sys.stderr)
        return 10
    except pika.exceptions.NackError:
        print("NACK", claim["guid"], file=sys.stderr)
        return 11
    finally:
        conn.close()
    print("ACK", claim["guid"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
