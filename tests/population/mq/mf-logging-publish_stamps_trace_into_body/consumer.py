#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]

exit codes: 0 ran until --max-seconds, 2 usage (argparse), 10 cannot connect to the broker,
            12 broker closed the channel (e.g. claim.in missing: run topology.py)
"""
import argparse
import http.client
import os
import sqlite3
import sys
import time
import urllib.error
import urllib.request
from collections import Counter

import pika

from common_log import redact, setup

log = setup("consumer")
URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

EXIT_OK, EXIT_CONNECT, EXIT_CHANNEL = 0, 10, 12


def post(endpoint, body, timeout):
    req = urllib.request.Request(endpoint, data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    t0 = time.monotonic()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            status = resp.status
    except urllib.error.HTTPError as exc:
        status = exc.code
    except (urllib.error.URLError, http.client.HTTPException, OSError) as exc:
        log.warning("  POST failed after %.2fs: %r", time.monotonic() - t0, exc)
        return None
    log.info("  POST -> %s in %.2fs", status, time.monotonic() - t0)
    return status


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    a = ap.parse_args()
    deadline = time.monotonic() + a.max_seconds
    endpoint = a.claim.rstrip("/") + "/v1/claims"
    log.info("start: claim=%s max_seconds=%s prefetch=%d db=%s amqp=%s",
             endpoint, a.max_seconds, a.prefetch, DB, redact(URL))

    db = sqlite3.connect(DB)
    db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, at TEXT)")
    db.commit()
    known = db.execute("SELECT COUNT(*) FROM processed").fetchone()[0]
    log.info("ledger has %d processed message_id(s)", known)

    try:
        conn = pika.BlockingConnection(pika.URLParameters(URL))
    except pika.exceptions.AMQPConnectionError as exc:
        log.error("cannot connect: %r", exc)
        return EXIT_CONNECT

    tally = Counter()
    try:
        ch = conn.channel()
        ch.basic_qos(prefetch_count=a.prefetch)
        log.info("basic_qos prefetch_count=%d", a.prefetch)
        for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
            if time.monotonic() >= deadline:
                log.info("--max-seconds reached")
                break
            if method is None:
                continue
            tag, mid = method.delivery_tag, props.message_id
            log.info("deliver tag=%d id=%s redelivered=%s", tag, mid, method.redelivered)
            if mid and db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone():
                log.info("  already processed -> ack, no call")
                ch.basic_ack(tag)
                tally["duplicate"] += 1
                continue
            left = deadline - time.monotonic()
            status = post(endpoint, body, timeout=min(5.0, max(1.0, left)))
            if status == 201:
                if mid:
                    db.execute("INSERT OR IGNORE INTO processed VALUES (?, datetime('now'))", (mid,))
                    db.commit()
                ch.basic_ack(tag)
                log.info("  recorded + ack")
                tally["accepted"] += 1
            elif status == 422:
                ch.basic_reject(tag, requeue=False)
                log.warning("  business rejection -> reject(requeue=False) -> DLX")
                tally["rejected"] += 1
            elif method.redelivered:
                ch.basic_reject(tag, requeue=False)
                log.warning("  failed again after redelivery (%s) -> DLX", status)
                tally["dead"] += 1
            else:
                ch.basic_nack(tag, requeue=True)
                log.warning("  transient (%s) -> nack(requeue=True), one more try", status)
                tally["requeued"] += 1
    except pika.exceptions.ChannelClosedByBroker as exc:
        log.error("channel closed by broker: %s %s", exc.reply_code, exc.reply_text)
        return EXIT_CHANNEL
    finally:
        if conn.is_open:
            conn.close()
        db.close()
    log.info("stop: %s", dict(tally))
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
