#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]

claim.in -> POST {URL}/v1/claims, driven by a SelectConnection ioloop.

  201          record message_id, then ack
  422          reject(requeue=False)            -> eai.dlx -> claim.dead
  503 / error  first time: nack(requeue=True); already redelivered: reject -> DLX
  seen before  ack without calling the claim system

A timer (ioloop.call_later) closes the connection after --max-seconds; any
delivery that is still unacked at that point goes back to the queue.
"""
import argparse
import http.client
import logging
import os
import sqlite3
import sys
import time
import urllib.error
import urllib.request

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
QUEUE = "claim.in"
HTTP_TIMEOUT = 3.0

log = logging.getLogger("consumer")


class Ledger:
    """message_ids that the claim system accepted (201). Nothing else goes in."""

    def __init__(self, path):
        folder = os.path.dirname(path)
        if folder:
            os.makedirs(folder, exist_ok=True)
        self.db = sqlite3.connect(path)
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS processed ("
            " message_id TEXT PRIMARY KEY, http_status INTEGER, done_at REAL)"
        )
        self.db.commit()

    def seen(self, message_id):
        row = self.db.execute(
            "SELECT 1 FROM processed WHERE message_id = ?", (message_id,)
        ).fetchone()
        return row is not None

    def remember(self, message_id, status):
        self.db.execute(
            "INSERT OR IGNORE INTO processed VALUES (?, ?, ?)",
            (message_id, status, time.time()),
        )
        self.db.commit()


def post_claim(base_url, body, timeout):
    """-> ("ok" | "reject" | "retry", detail)"""
    req = urllib.request.Request(
        base_url.rstrip("/") + "/v1/claims",
        data=body,
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            resp.read()
            status = resp.status
    except urllib.error.HTTPError as e:       # 4xx/5xx come back as exceptions
        status = e.code
        e.close()
    except (urllib.error.URLError, http.client.HTTPException, OSError) as e:
        return "retry", f"{type(e).__name__}: {e}"
    if status == 201:
        return "ok", status
    if status == 422:
        return "reject", status
    return "retry", status


class ClaimConsumer:
    def __init__(self, args):
        self.args = args
        self.ledger = Ledger(DB_PATH)
        self.deadline = time.monotonic() + args.max_seconds
        self.stopping = False
        self.rc = 0
        self.channel = None
        self.conn = pika.SelectConnection(
            pika.URLParameters(URL),
            on_open_callback=self.on_open,
            on_open_error_callback=self.on_open_error,
            on_close_callback=self.on_close,
        )

    def run(self):
        self.conn.ioloop.call_later(max(0.0, self.args.max_seconds), self.stop)
        self.conn.ioloop.start()
        return self.rc

    # --- connection / channel --------------------------------------------
    def on_open(self, conn):
        conn.channel(on_open_callback=self.on_channel)

    def on_open_error(self, conn, err):
        log.error("cannot connect: %r", err)
        self.rc = 1
        conn.ioloop.stop()

    def on_close(self, conn, reason):
        if not self.stopping:
            log.error("connection lost: %s", reason)
            self.rc = 1
        conn.ioloop.stop()

    def on_channel(self, ch):
        self.channel = ch
        ch.add_on_close_callback(self.on_channel_closed)
        ch.basic_qos(prefetch_count=self.args.prefetch, callback=self.on_qos_ok)

    def on_qos_ok(self, _frame):
        self.channel.basic_consume(QUEUE, self.on_message, auto_ack=False)
        log.info("consuming %s (prefetch %d, %.0fs)", QUEUE, self.args.prefetch,
                 self.args.max_seconds)

    def on_channel_closed(self, ch, reason):
        if not self.stopping:
            log.error("channel closed: %s", reason)
            self.rc = 1
        self.stop()

    def stop(self):
        if self.stopping:
            return
        self.stopping = True
        log.info("time is up, closing")
        if self.conn.is_open:
            self.conn.close()          # unacked deliveries go back to claim.in
        elif not self.conn.is_closing:
            self.conn.ioloop.stop()

    # --- the work ---------------------------------------------------------
    def on_message(self, ch, method, props, body):
        # deliveries already buffered when the timer fired: leave them alone,
        # closing the connection hands them back to the broker.
        if self.stopping:
            return
        if time.monotonic() >= self.deadline:
            self.stop()
            return

        tag = method.delivery_tag
        mid = props.message_id
        if mid and self.ledger.seen(mid):
            log.info("%s: already processed, ack only", mid)
            ch.basic_ack(tag)
            return

        outcome, detail = post_claim(self.args.claim, body, HTTP_TIMEOUT)
        if outcome == "ok":
            if mid:
                self.ledger.remember(mid, detail)   # record first ...
            ch.basic_ack(tag)                       # ... then ack
            log.info("%s: 201, acked", mid)
        elif outcome == "reject":
            log.info("%s: %s business rejection -> DLX", mid, detail)
            ch.basic_reject(tag, requeue=False)
        elif method.redelivered:
            log.info("%s: %s again after a redelivery -> DLX", mid, detail)
            ch.basic_reject(tag, requeue=False)
        else:
            log.info("%s: %s, giving it back once", mid, detail)
            ch.basic_nack(tag, requeue=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True, help="claim system base URL")
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    logging.getLogger("pika").setLevel(logging.WARNING)
    return ClaimConsumer(args).run()


if __name__ == "__main__":
    sys.exit(main())
