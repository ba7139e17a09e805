import argparse
import sys
import time

import requests

import common


def main():
    ap = argparse.ArgumentParser(description="claim.in -> claim system")
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    opts = ap.parse_args()

    url = opts.claim.rstrip("/") + "/v1/claims"
    end = time.monotonic() + opts.max_seconds
    db = common.open_db()
    conn, ch = common.channel()
    ch.basic_qos(prefetch_count=opts.prefetch)

    for method, props, body in ch.consume(common.QUEUE, inactivity_timeout=0.5):
        if time.monotonic() >= end:
            break
        if method is None:
            continue
        mid = props.message_id
        before = common.handled(db, mid)
        if before:
            print(f"{mid}: handled before ({before}), ack")
            ch.basic_ack(method.delivery_tag)
            continue
        try:
            status = requests.post(url, data=body, headers={"Content-Type": "application/json"}, timeout=4).status_code
        except requests.RequestException as exc:
            status = type(exc).__name__
        if status == 201:
            common.mark(db, mid, "accepted")
            ch.basic_ack(method.delivery_tag)
        elif status == 422:
            common.mark(db, mid, "rejected")
            ch.basic_reject(method.delivery_tag, requeue=False)
        elif method.redelivered:
            common.mark(db, mid, "dead")
            ch.basic_reject(method.delivery_tag, requeue=False)
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)
        print(f"{mid}: {status}{' (redelivered)' if method.redelivered else ''}", flush=True)

    ch.cancel()
    conn.close()
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
