#!/usr/bin/env python3
# publish.py <claim.json> -- one claim onto eai.claim with publisher confirms
import json
import os
import sys
import time

import pika

AMQP_URL = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
EXIT_UNROUTABLE = 3

def main():
    if len(sys.argv) != 2:
        print(__doc__ or "usage: publish.py <claim.json>", file=sys.stderr)
        return 2
    with open(sys.argv[1], "rb") as fh:
        payload = fh.read()
    claim = json.loads(payload)
    props = pika.BasicProperties(
        content_type="application/json",
        delivery_mode=pika.DeliveryMode.Persistent,
        message_id=claim["guid"],
        app_id="publish.py",
        headers={"x-claim-id": claim.get("claimId"), "x-attempt": 1},
    )
    with pika.BlockingConnection(pika.URLParameters(AMQP_URL)) as conn:
        ch = conn.channel()
        ch.confirm_delivery()
        delay = 0.5
        attempt = 1
        while True:
            try:
                ch.basic_publish("eai.claim", "claim", payload, props, mandatory=True)
                break
            except pika.exceptions.UnroutableError:
                print("unroutable: no binding for 'claim' on eai.claim", file=sys.stderr)
                return EXIT_UNROUTABLE
            except pika.exceptions.NackError:
                # a nack is the broker under pressure (memory/disk alarm, queue limit):
                # it clears by itself, so back off and send again -- never drop a claim
                print(f"nacked (attempt {attempt}), retrying in {delay:.1f}s", file=sys.stderr)
                time.sleep(delay)
                delay = min(delay * 2, 10.0)
                attempt += 1
                props.headers["x-attempt"] = attempt
    print(f"confirmed {claim['guid']} after {attempt} attempt(s)")
    return 0

if __name__ == "__main__":
    sys.exit(main())
