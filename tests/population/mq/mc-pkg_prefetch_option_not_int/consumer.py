import argparse
import sys
import time

import requests

import settings
from common import Dedup, open_channel


def post_claim(url, body):
    """HTTP status, or None when the claim system could not be reached / timed out."""
    try:
        return requests.post(url, data=body, headers={"Content-Type": "application/json"},
                             timeout=settings.CLAIM_TIMEOUT).status_code
    except requests.exceptions.RequestException as e:
        print(f"  claim system error: {e.__class__.__name__}")
        return None


def handle(ch, method, props, body, url, dedup):
    mid = props.message_id
    if dedup.seen(mid):
        ch.basic_ack(method.delivery_tag)
        return "dup"
    status = post_claim(url, body)
    if status == 201:
        dedup.mark(mid)
        ch.basic_ack(method.delivery_tag)
        return "ok"
    if status == 422:
        ch.basic_reject(method.delivery_tag, requeue=False)
        return "rejected"
    if method.redelivered:
        ch.basic_reject(method.delivery_tag, requeue=False)
        return "dead"
    ch.basic_nack(method.delivery_tag, requeue=True)
    return "retry"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", default=settings.PREFETCH)
    args = ap.parse_args()

    url = args.claim.rstrip("/") + "/v1/claims"
    deadline = time.monotonic() + args.max_seconds
    dedup = Dedup()
    conn, ch = open_channel()
    ch.basic_qos(prefetch_count=args.prefetch)
    for method, props, body in ch.consume(settings.IN_QUEUE, inactivity_timeout=settings.IDLE_POLL):
        if time.monotonic() >= deadline:
            break
        if method is None:
            continue
        result = handle(ch, method, props, body, url, dedup)
        print(f"{props.message_id} -> {result}", flush=True)
    ch.cancel()
    conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
