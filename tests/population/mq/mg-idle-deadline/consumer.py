from __future__ import annotations

import argparse
import logging
import os
import sqlite3
import time

import pika
import requests

URL: str = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB: str = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
HTTP_TIMEOUT: float = 3.0

log = logging.getLogger("consumer")


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description="claim.in -> claim system")
    ap.add_argument("--claim", required=True, help="e.g. http://127.0.0.1:9202")
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    return ap.parse_args()


def post_claim(base: str, body: bytes) -> int | None:
    """HTTP status of the claim system, None when it could not be reached / timed out."""
    try:
        r = requests.post(f"{base.rstrip('/')}/v1/claims", data=body,
                          headers={"Content-Type": "application/json"}, timeout=HTTP_TIMEOUT)
        return r.status_code
    except requests.RequestException as exc:
        log.warning("claim system: %s", exc.__class__.__name__)
        return None


def main() -> None:
    args = parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")

    db = sqlite3.connect(DB)
    db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, at REAL NOT NULL)")
    db.commit()

    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=args.prefetch)
    deadline = time.monotonic() + args.max_seconds

    for method, props, body in ch.consume("claim.in", auto_ack=False, inactivity_timeout=0.5):
        if method is None:
            # nothing to do right now: is it time to stop?
            if time.monotonic() >= deadline:
                break
            continue

        mid: str = props.message_id
        if db.execute("SELECT 1 FROM processed WHERE message_id = ?", (mid,)).fetchone():
            log.info("%s seen before, ack", mid)
            ch.basic_ack(method.delivery_tag)
            continue

        status = post_claim(args.claim, body)
        if status == 201:
            with db:
                db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?)", (mid, time.time()))
            ch.basic_ack(method.delivery_tag)
            log.info("%s 201 -> ack", mid)
        elif status == 422:
            ch.basic_reject(method.delivery_tag, requeue=False)
            log.info("%s 422 -> claim.dead", mid)
        elif method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
            log.info("%s %s again -> claim.dead", mid, status)
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)
            log.info("%s %s -> requeue", mid, status)

    ch.cancel()
    conn.close()


if __name__ == "__main__":
    main()
