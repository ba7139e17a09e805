"""publish.py CLAIM_JSON_FILE -- publish one claim with publisher confirms and mandatory routing."""
import json
import os
import socket
import sys
import time

import pika
from pika.exceptions import NackError, UnroutableError

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main(argv):
    if len(argv) != 2:
        print("usage: publish.py CLAIM_JSON_FILE", file=sys.stderr)
        return 64
    with open(argv[1], "rb") as f:
        raw = f.read()
    claim = json.loads(raw)

    props = pika.BasicProperties(
        delivery_mode=pika.DeliveryMode.Persistent,
        message_id=claim["guid"],
        content_type="application/json",
        app_id="publish.py@" + socket.gethostname(),
        timestamp=int(time.time()),
        headers={"claim-id": claim.get("claimId")},
    )

    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.confirm_delivery()
    rc = 0
    try:
        ch.basic_publish("eai.claim", "claim", raw, props, mandatory=True)
        print("confirmed", claim["guid"])
    except UnroutableError as e:
        print("returned by the broker (unroutable):", e, file=sys.stderr)
        rc = 2
    except NackError as e:
        print("nacked by the broker:", e, file=sys.stderr)
        rc = 3
    finally:
        conn.close()
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
