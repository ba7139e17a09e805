#!/usr/bin/env python3
"""publish.py CLAIM_JSON_FILE -> eai.claim / claim, persistent, confirmed, mandatory."""
import json
import os
import socket
import sys
import time

import pika
from pika.exceptions import ChannelClosedByBroker, NackError, UnroutableError

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main(argv):
    if len(argv) < 2:
        sys.stderr.write("usage: publish.py CLAIM_JSON_FILE\n")
        return 64
    raw = open(argv[1], "rb").read()
    claim = json.loads(raw)
    props = pika.BasicProperties(
        content_type="application/json",
        content_encoding="utf-8",
        delivery_mode=2,
        message_id=claim["guid"],
        correlation_id=claim.get("claimId"),
        app_id="eaimw-mq-publish",
        timestamp=int(time.time()),
        type="claim.submitted",
        headers={
            "claim-id": claim.get("claimId"),
            "policy-no": claim.get("policyNo"),
            "published-by": socket.gethostname(),
            "source-file": os.path.basename(argv[1]),
        },
    )
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    try:
        ch.exchange_declare("eai.claim", passive=True)  # fail early when the topology is missing
    except ChannelClosedByBroker as e:
        print(f"eai.claim missing ({e.reply_text}); run topology.py first", file=sys.stderr)
        conn.close()
        return 2
    ch.confirm_delivery()
    try:
        ch.basic_publish("eai.claim", "claim", raw, props, mandatory=True)
    except UnroutableError:
        print(f"{claim['guid']}: UNROUTABLE (no queue bound for 'claim')", file=sys.stderr)
        return 3
    except NackError:
        print(f"{claim['guid']}: NACKED by the broker", file=sys.stderr)
        return 4
    finally:
        if conn.is_open:
            conn.close()
    print(f"{claim['guid']}: confirmed ({len(raw)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
