"""consumer.py --claim URL --max-seconds S [--prefetch N]

Callback style: basic_consume registers on_message, start_consuming runs the loop and a
call_later timer stops it after --max-seconds.
"""
import argparse
import logging
import os
import sqlite3
import time

import pika
import requests

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
HTTP_TIMEOUT = 5.0

log = logging.getLogger("consumer")

ACK, DEAD, RETRY = "ack", "dead", "retry"


class ClaimConsumer:
    def __init__(self, claim_url, max_seconds, prefetch):
        self.endpoint = claim_url.rstrip("/") + "/v1/claims"
        self.deadline = time.monotonic() + max_seconds
        self.max_seconds = max_seconds
        self.prefetch = prefetch
        self.http = requests.Session()
        self.db = sqlite3.connect(DB, isolation_level=None)  # autocommit: every INSERT is on disk at once
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS handled ("
            " message_id TEXT PRIMARY KEY, outcome TEXT NOT NULL, handled_at REAL NOT NULL)"
        )
        self.stopping = False

    # -- storage ---------------------------------------------------------------
    def already_done(self, message_id):
        row = self.db.execute(
            "SELECT 1 FROM handled WHERE message_id = ? AND outcome = 'created'", (message_id,)
        ).fetchone()
        return row is not None

    def remember(self, message_id):
        self.db.execute(
            "INSERT OR REPLACE INTO handled (message_id, outcome, handled_at) VALUES (?, 'created', ?)",
            (message_id, time.time()),
        )

    # -- HTTP ------------------------------------------------------------------
    def deliver(self, body):
        left = self.deadline - time.monotonic()
        timeout = max(0.2, min(HTTP_TIMEOUT, left))
        try:
            resp = self.http.post(
                self.endpoint, data=body, headers={"Content-Type": "application/json"}, timeout=timeout
            )
        except requests.RequestException as exc:  # refused, reset, connect or read timeout
            log.warning("claim system unreachable: %s", exc)
            return None
        return resp.status_code

    # -- callbacks -------------------------------------------------------------
    def on_message(self, ch, method, props, body):
        tag = method.delivery_tag
        if self.stopping or time.monotonic() >= self.deadline:
            ch.basic_nack(delivery_tag=tag, requeue=True)
            self.stop(ch)
            return
        mid = props.message_id
        if mid and self.already_done(mid):
            log.info("%s already processed: ack without calling", mid)
            ch.basic_ack(delivery_tag=tag)
            return
        status = self.deliver(body)
        verdict = self.judge(status, method.redelivered)
        log.info("%s -> %s (%s, redelivered=%s)", mid, status, verdict, method.redelivered)
        if verdict == ACK:
            if mid:
                self.remember(mid)
            ch.basic_ack(delivery_tag=tag)
        elif verdict == DEAD:
            ch.basic_nack(delivery_tag=tag, multiple=False, requeue=False)  # same as reject: off to eai.dlx
        else:
            ch.basic_nack(delivery_tag=tag, multiple=False, requeue=True)

    @staticmethod
    def judge(status, redelivered):
        if status == 201:
            return ACK
        if status == 422:
            return DEAD
        if status is None or status == 503:
            return DEAD if redelivered else RETRY
        return RETRY

    def stop(self, ch):
        if not self.stopping:
            self.stopping = True
            log.info("time is up, stop consuming")
        ch.stop_consuming()

    def run(self):
        conn = pika.BlockingConnection(pika.URLParameters(URL))
        ch = conn.channel()
        ch.basic_qos(prefetch_count=self.prefetch)
        ch.basic_consume(queue="claim.in", on_message_callback=self.on_message, auto_ack=False)
        conn.call_later(max(0.0, self.deadline - time.monotonic()), lambda: self.stop(ch))
        try:
            ch.start_consuming()
        finally:
            conn.close()  # whatever is still unacked goes back to claim.in
            self.db.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    ClaimConsumer(args.claim, args.max_seconds, args.prefetch).run()


if __name__ == "__main__":
    main()
