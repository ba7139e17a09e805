#!/usr/bin/env python3
"""Async claim consumer (pika SelectConnection).

I come from Node, so this is written as an event loop: every step is a callback
that schedules the next one. The HTTP call itself is a plain blocking urllib call
inside on_message (one message at a time is what I want anyway, prefetch caps the rest).

    consumer.py --claim URL --max-seconds S [--prefetch N]

  201          -> remember message_id in sqlite, then ack
  422          -> reject(requeue=False)          (business rejection -> DLX)
  503 / conn refused / timeout / other
               -> first time: nack(requeue=True); if method.redelivered: reject(requeue=False)
  message_id already in sqlite -> ack, no HTTP call
"""
import argparse
import logging
import os
import socket
import sqlite3
import sys
import time
import urllib.error
import urllib.request

import pika

log = logging.getLogger("consumer")

AMQP_URL = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.getenv("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
QUEUE = "claim.in"
HTTP_TIMEOUT_CAP = 4.0


class Dedup:
    def __init__(self, path: str) -> None:
        self.conn = sqlite3.connect(path)
        self.conn.execute("CREATE TABLE IF NOT EXISTS seen (mid TEXT PRIMARY KEY, ts REAL)")
        self.conn.commit()

    def has(self, mid: str) -> bool:
        return self.conn.execute("SELECT 1 FROM seen WHERE mid=?", (mid,)).fetchone() is not None

    def add(self, mid: str) -> None:
        self.conn.execute("INSERT OR IGNORE INTO seen VALUES (?, ?)", (mid, time.time()))
        self.conn.commit()


def post_claim(url: str, body: bytes, timeout: float):
    """Return the HTTP status, or None for a transport failure (refused, reset, timeout)."""
    req = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status
    except urllib.error.HTTPError as err:  # 4xx/5xx land here with urllib
        return err.code
    except (urllib.error.URLError, socket.timeout, ConnectionError, OSError) as err:
        log.warning("claim system unreachable: %r", err)
        return None


class App:
    def __init__(self, claim_base: str, max_seconds: float, prefetch: int) -> None:
        self.claims_url = claim_base.rstrip("/") + "/v1/claims"
        self.max_seconds = max_seconds
        self.prefetch = prefetch
        self.deadline = time.monotonic() + max_seconds
        self.dedup = Dedup(DB_PATH)
        self.conn = None
        self.ch = None
        self.tag = None
        self.stopping = False
        self.rc = 0

    # ---- connection lifecycle -------------------------------------------------
    def start(self) -> int:
        self.conn = pika.SelectConnection(
            pika.URLParameters(AMQP_URL),
            on_open_callback=self.on_conn_open,
            on_open_error_callback=self.on_conn_error,
            on_close_callback=self.on_conn_closed,
        )
        # the whole run is bounded: stop at the deadline, hard-stop the loop shortly after
        self.conn.ioloop.call_later(self.max_seconds, self.stop)
        self.conn.ioloop.call_later(self.max_seconds + 3, self.conn.ioloop.stop)
        self.conn.ioloop.start()
        return self.rc

    def on_conn_open(self, conn) -> None:
        conn.channel(on_open_callback=self.on_channel_open)

    def on_conn_error(self, conn, err) -> None:
        log.error("cannot connect to broker: %r", err)
        self.rc = 1
        conn.ioloop.stop()

    def on_conn_closed(self, conn, reason) -> None:
        log.info("connection closed: %r", reason)
        conn.ioloop.stop()

    def on_channel_open(self, ch) -> None:
        self.ch = ch
        ch.add_on_close_callback(self.on_channel_closed)
        ch.basic_qos(prefetch_count=self.prefetch, callback=self.on_qos_ok)

    def on_channel_closed(self, ch, reason) -> None:
        log.warning("channel closed: %r", reason)
        if not self.stopping:
            self.rc = 1
            self.stop()

    def on_qos_ok(self, _frame) -> None:
        log.info("prefetch=%d, consuming %s for %.1fs", self.prefetch, QUEUE, self.max_seconds)
        self.tag = self.ch.basic_consume(QUEUE, self.on_message, auto_ack=False)

    def stop(self) -> None:
        if self.stopping:
            return
        self.stopping = True
        log.info("time is up, stopping")
        if self.ch is not None and self.ch.is_open and self.tag is not None:
            self.ch.basic_cancel(self.tag, callback=lambda _f: self.close())
        else:
            self.close()

    def close(self) -> None:
        # unacked deliveries go back to the queue when the connection closes
        if self.conn.is_open:
            self.conn.close()

    # ---- the actual work ----------------------------------------------------------
    def on_message(self, ch, method, props, body) -> None:
        dtag = method.delivery_tag
        left = self.deadline - time.monotonic()
        if self.stopping or left <= 0:
            ch.basic_nack(dtag, requeue=True)  # not ours anymore, give it back untouched
            return
        mid = props.message_id
        if mid and self.dedup.has(mid):
            log.info("%s already processed -> ack without calling", mid)
            ch.basic_ack(dtag)
            return

        status = post_claim(self.claims_url, body, timeout=max(0.5, min(HTTP_TIMEOUT_CAP, left)))
        if status == 201:
            if mid:
                self.dedup.add(mid)
            ch.basic_ack(dtag)
            log.info("%s -> 201, acked", mid)
        elif status == 422:
            ch.basic_reject(dtag, requeue=False)
            log.info("%s -> 422, dead-lettered", mid)
        elif method.redelivered:
            ch.basic_reject(dtag, requeue=False)
            log.info("%s -> %s again after a redelivery, dead-lettered", mid, status)
        else:
            ch.basic_nack(dtag, requeue=True)
            log.info("%s -> %s, requeued once", mid, status)


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("pika").setLevel(logging.WARNING)
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    a = ap.parse_args()
    return App(a.claim, a.max_seconds, a.prefetch).start()


if __name__ == "__main__":
    sys.exit(main())
