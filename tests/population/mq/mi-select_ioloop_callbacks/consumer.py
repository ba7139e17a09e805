#!/usr/bin/env python3
# consumer.py --claim URL --max-seconds S [--prefetch N]
#
# Event-driven consumer: pika.SelectConnection + ioloop callbacks.
#   open -> channel -> basic_qos(prefetch) -> basic_consume(on_message, auto_ack=False)
#   ioloop.call_later(max_seconds) -> close (unacked deliveries go back to the queue)
# on_message does not block the ioloop: it hands the delivery to ONE worker thread (in order),
# which checks processed.db, POSTs, records a 201, and hands the verdict back to the ioloop
# with add_callback_threadsafe (pika channels are not thread-safe: only the ioloop thread
# touches the channel). So acks leave at once and the deadline timer fires on time.
import argparse
import functools
import os
import queue
import sqlite3
import sys
import threading
import time

import pika
import requests

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
POST_TIMEOUT = 4.0


class ClaimConsumer:
    def __init__(self, claim_url, max_seconds, prefetch):
        self.claim_url = claim_url.rstrip("/") + "/v1/claims"
        self.deadline = time.monotonic() + max_seconds
        self.prefetch = prefetch
        self.http = requests.Session()
        db = sqlite3.connect(DB)
        db.execute("CREATE TABLE IF NOT EXISTS done (message_id TEXT PRIMARY KEY, at REAL)")
        db.commit()
        db.close()
        self.db = None              # the worker thread opens its own connection
        self.inbox = queue.Queue()
        self.conn = None
        self.channel = None
        self.closing = False
        self.failed = False

    # ---- lifecycle ----
    def run(self):
        self.conn = pika.SelectConnection(pika.URLParameters(URL),
                                          on_open_callback=self.on_conn_open,
                                          on_open_error_callback=self.on_conn_error,
                                          on_close_callback=self.on_conn_closed)
        self.conn.ioloop.call_later(max(0.0, self.deadline - time.monotonic()), self.stop)
        threading.Thread(target=self.worker, daemon=True).start()
        self.conn.ioloop.start()
        return 1 if self.failed else 0

    def stop(self):
        if self.closing:
            return
        self.closing = True
        if self.conn.is_open or self.conn.is_opening:
            self.conn.close()
        else:
            self.conn.ioloop.stop()

    def on_conn_open(self, conn):
        conn.channel(on_open_callback=self.on_channel_open)

    def on_conn_error(self, conn, err):
        print("cannot connect:", err, file=sys.stderr)
        self.failed = True
        conn.ioloop.stop()

    def on_conn_closed(self, conn, reason):
        if not self.closing:
            print("connection lost:", reason, file=sys.stderr)
            self.failed = True
        conn.ioloop.stop()

    def on_channel_open(self, ch):
        self.channel = ch
        ch.add_on_close_callback(self.on_channel_closed)
        ch.basic_qos(prefetch_count=self.prefetch, callback=self.on_qos_ok)

    def on_channel_closed(self, ch, reason):
        if not self.closing:
            print("channel closed:", reason, file=sys.stderr)
            self.failed = True
            self.stop()

    def on_qos_ok(self, _frame):
        self.channel.basic_consume("claim.in", self.on_message, auto_ack=False)

    # ---- messages ----
    def already_done(self, mid):
        return self.db.execute("SELECT 1 FROM done WHERE message_id=?", (mid,)).fetchone() is not None

    def mark_done(self, mid):
        self.db.execute("INSERT OR IGNORE INTO done VALUES (?, ?)", (mid, time.time()))
        self.db.commit()

    def post(self, body):
        left = self.deadline - time.monotonic()
        try:
            r = self.http.post(self.claim_url, data=body,
                               headers={"Content-Type": "application/json"},
                               timeout=max(0.2, min(POST_TIMEOUT, left)))
            return r.status_code
        except (requests.ConnectionError, requests.Timeout) as e:
            print("claim system error:", type(e).__name__, file=sys.stderr)
            return None

    def on_message(self, ch, method, props, body):
        # ioloop thread: just queue it for the worker
        self.inbox.put((method.delivery_tag, method.redelivered, props.message_id, body))

    def settle(self, tag, verdict):
        # ioloop thread (scheduled by the worker)
        if self.closing or self.channel is None or not self.channel.is_open:
            return                                  # unacked -> broker requeues it
        if verdict == "ack":
            self.channel.basic_ack(tag)
        elif verdict == "dead":
            self.channel.basic_reject(tag, requeue=False)   # -> eai.dlx -> claim.dead
        else:
            self.channel.basic_nack(tag, requeue=True)      # one more chance

    def worker(self):
        self.db = sqlite3.connect(DB)
        while True:
            tag, redelivered, mid, body = self.inbox.get()
            if self.closing or time.monotonic() >= self.deadline:
                continue                    # not settled: goes back when we close
            if mid and self.already_done(mid):
                verdict = "ack"
            else:
                status = self.post(body)
                if status == 201:
                    if mid:
                        self.mark_done(mid)     # committed before the ack is even scheduled
                    verdict = "ack"
                elif status == 422:
                    verdict = "dead"
                elif redelivered:
                    verdict = "dead"            # failed again after one requeue
                else:
                    verdict = "requeue"
            try:
                self.conn.ioloop.add_callback_threadsafe(functools.partial(self.settle, tag, verdict))
            except Exception:
                return                          # ioloop already gone


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    a = ap.parse_args()
    return ClaimConsumer(a.claim, a.max_seconds, a.prefetch).run()


if __name__ == "__main__":
    sys.exit(main())
