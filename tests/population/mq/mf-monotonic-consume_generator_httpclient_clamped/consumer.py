#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]

Consume claim.in through the channel.consume() generator. One clock for everything:
time.monotonic(). The generator wakes up at least every POLL seconds (inactivity_timeout),
the HTTP call never gets more time than what is left of the run (with a small floor), so the
process ends close to --max-seconds whatever the claim system does.
"""
import argparse
import http.client
import os
import sqlite3
import sys
import time
from urllib.parse import urlsplit

import pika

POLL = 0.25          # inactivity_timeout of the consume generator
HTTP_CAP = 4.0       # longest a single POST may take
HTTP_FLOOR = 0.75    # shortest timeout we hand out near the end of the run


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--claim", required=True)
    p.add_argument("--max-seconds", type=float, required=True)
    p.add_argument("--prefetch", type=int, default=5)
    return p.parse_args()


class Clock:
    def __init__(self, seconds):
        self.deadline = time.monotonic() + seconds

    def left(self):
        return self.deadline - time.monotonic()

    def over(self):
        return self.left() <= 0


def post_claim(base, body, timeout):
    """Return the HTTP status, or None on connection failure / timeout."""
    u = urlsplit(base)
    path = (u.path.rstrip("/") or "") + "/v1/claims"
    conn = http.client.HTTPConnection(u.hostname, u.port or 80, timeout=timeout)
    try:
        conn.request("POST", path, body=body, headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        resp.read()
        return resp.status
    except (OSError, http.client.HTTPException) as exc:   # refused, reset, timeout, no answer
        print(f"transient: {exc!r}", file=sys.stderr)
        return None
    finally:
        conn.close()


def main():
    a = parse_args()
    clock = Clock(a.max_seconds)

    db = sqlite3.connect(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
    db.execute("CREATE TABLE IF NOT EXISTS done (message_id TEXT PRIMARY KEY)")
    db.commit()

    url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    conn = pika.BlockingConnection(pika.URLParameters(url))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=a.prefetch)

    for method, props, body in ch.consume("claim.in", inactivity_timeout=POLL):
        if clock.over():
            break
        if method is None:
            continue
        tag, mid = method.delivery_tag, props.message_id

        if mid and db.execute("SELECT 1 FROM done WHERE message_id=?", (mid,)).fetchone():
            ch.basic_ack(tag)
            continue

        timeout = min(HTTP_CAP, max(HTTP_FLOOR, clock.left()))
        status = post_claim(a.claim, body, timeout)

        if status == 201:
            if mid:
                db.execute("INSERT INTO done(message_id) VALUES (?) ON CONFLICT DO NOTHING", (mid,))
                db.commit()
            ch.basic_ack(tag)
        elif status == 422:
            ch.basic_reject(tag, requeue=False)
        elif method.redelivered:
            ch.basic_nack(tag, requeue=False)
        else:
            ch.basic_nack(tag, requeue=True)

    requeued = ch.cancel()   # hand back whatever the generator still buffers
    print(f"stopped, {requeued} buffered message(s) handed back", file=sys.stderr)
    conn.close()
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
