#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]"""
import argparse
import http.client
import socket
import time
import urllib.error
import urllib.request

import mqcommon as mq

PER_CALL_TIMEOUT = 2.5


def post_claim(url, body, timeout):
    """HTTP status of the POST, or None for a transport failure (refused, timeout, reset)."""
    req = urllib.request.Request(url, data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            resp.read()
            return resp.status
    except urllib.error.HTTPError as err:       # 4xx / 5xx answers
        return err.code
    except (urllib.error.URLError, socket.timeout, ConnectionError,
            http.client.HTTPException, OSError) as err:
        print("transport failure:", repr(err), flush=True)
        return None


def decide(status, redelivered):
    if status == 201:
        return "ack"
    if status == 422:
        return "dead"
    return "dead" if redelivered else "again"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True, help="claim system base URL")
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()

    stop_at = time.monotonic() + args.max_seconds
    target = args.claim.rstrip("/") + "/v1/claims"
    journal = mq.Journal()
    conn = mq.connect()
    ch = conn.channel()
    ch.basic_qos(prefetch_count=args.prefetch)
    try:
        for method, props, body in ch.consume(mq.QUEUE, inactivity_timeout=0.25):
            left = stop_at - time.monotonic()
            if left <= 0:
                break               # unacked deliveries go back when the channel closes
            if method is None:
                continue
            mid = props.message_id
            if mid and mid in journal:
                ch.basic_ack(method.delivery_tag)
                continue
            status = post_claim(target, body, min(PER_CALL_TIMEOUT, max(left, 0.1)))
            what = decide(status, method.redelivered)
            print(mid, status, what, flush=True)
            if what == "ack":
                if mid:
                    journal.add(mid)
                ch.basic_ack(method.delivery_tag)
            elif what == "dead":
                ch.basic_reject(method.delivery_tag, requeue=False)
            else:
                ch.basic_nack(method.delivery_tag, requeue=True)
    finally:
        conn.close()
        journal.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
