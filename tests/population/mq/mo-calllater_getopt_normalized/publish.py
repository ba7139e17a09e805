#!/usr/bin/env python3
"""publish.py CLAIM.json [MORE.json ...]

Each claim is parsed and sent as compact UTF-8 JSON (same content, no pretty-printing),
confirmed one by one. Exit status: number of claims that were not confirmed (0 = all ok).
"""
import json
import os
import sys

import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main(paths):
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    ch = conn.channel()
    ch.confirm_delivery()
    failed = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            claim = json.load(f)
        body = json.dumps(claim, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        props = pika.BasicProperties(delivery_mode=2, message_id=claim["guid"],
                                     content_type="application/json")
        try:
            ch.basic_publish("eai.claim", "claim", body, props, mandatory=True)
        except pika.exceptions.UnroutableError:
            print(f"{path}: unroutable (no binding for key claim)", file=sys.stderr)
            failed += 1
        except pika.exceptions.NackError:
            print(f"{path}: nacked by the broker", file=sys.stderr)
            failed += 1
        else:
            print(f"{path}: confirmed as {claim['guid']}")
    conn.close()
    return min(failed, 100)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
