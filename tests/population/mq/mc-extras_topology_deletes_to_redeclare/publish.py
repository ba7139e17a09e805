"""publish.py CLAIM_JSON_FILE"""
import datetime
import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    raw = open(sys.argv[1], "rb").read()
    claim = json.loads(raw)
    props = pika.BasicProperties(
        delivery_mode=2,
        message_id=claim["guid"],
        content_type="application/json",
        headers={"claimId": claim.get("claimId"), "docs": len(claim.get("docs") or []),
                 "publishedAt": datetime.datetime.now().astimezone().isoformat()},
    )
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.exchange_declare("eai.claim", passive=True)
    ch.confirm_delivery()
    try:
        ch.basic_publish("eai.claim", "claim", raw, props, mandatory=True)
    except UnroutableError:
        print("unroutable: is claim.in bound to eai.claim with key 'claim'?", file=sys.stderr)
        return 1
    except NackError:
        print("nacked by the broker", file=sys.stderr)
        return 1
    finally:
        if conn.is_open:
            conn.close()
    print("confirmed", claim["guid"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
