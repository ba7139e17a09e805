#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]"""
import argparse
import http.client
import os
import sqlite3
import time
from urllib.parse import urlsplit

import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
CALL_TIMEOUT = 3.0


class ClaimConsumer:
    def __init__(self, claim_url, max_seconds, prefetch):
        self.deadline = time.monotonic() + max_seconds
        parts = urlsplit(claim_url)
        self.host, self.port = parts.hostname, parts.port or 80
        self.path = parts.path.rstrip("/") + "/v1/claims"
        self.prefetch = prefetch
        self.db = sqlite3.connect(DB)
        self.db.execute("""CREATE TABLE IF NOT EXISTS claims_done (
                               message_id TEXT PRIMARY KEY,
                               body       BLOB,
                               done_at    INTEGER)""")
        self.db.commit()
        self.stats = {"ack": 0, "dup": 0, "dlx": 0, "requeue": 0}

    # -- claim system ---------------------------------------------------
    def post_claim(self, body):
        """Returns the HTTP status, or None for a connection failure / timeout."""
        timeout = max(0.2, min(CALL_TIMEOUT, self.deadline - time.monotonic()))
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            conn.request("POST", self.path, body=body, headers={"Content-Type": "application/json"})
            resp = conn.getresponse()
            resp.read()
            return resp.status
        except (OSError, http.client.HTTPException) as e:
            print("  claim system unreachable:", repr(e), flush=True)
            return None
        finally:
            conn.close()

    # -- callbacks --------------------------------------------------------
    def on_message(self, ch, method, props, body):
        if time.monotonic() >= self.deadline:
            return  # stays unacked; returned to the queue when we close
        mid = props.message_id
        tag = method.delivery_tag
        if mid is not None and self.db.execute(
                "SELECT 1 FROM claims_done WHERE message_id=?", (mid,)).fetchone():
            self.stats["dup"] += 1
            ch.basic_ack(tag)
            return
        status = self.post_claim(body)
        print(f"{mid}: {status} (redelivered={method.redelivered})", flush=True)
        if status == 201:
            self.db.execute("INSERT OR IGNORE INTO claims_done VALUES (?, ?, ?)", (mid, body, int(time.time())))
            self.db.commit()
            ch.basic_ack(tag)
            self.stats["ack"] += 1
        elif status == 422 or method.redelivered:
            # business rejection, or a second transient failure: dead-letter it
            ch.basic_nack(tag, requeue=False)
            self.stats["dlx"] += 1
        else:
            ch.basic_nack(tag, requeue=True)
            self.stats["requeue"] += 1

    def run(self):
        conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
        ch = conn.channel()
        ch.basic_qos(prefetch_count=self.prefetch)
        tag = ch.basic_consume("claim.in", self.on_message)
        while True:
            left = self.deadline - time.monotonic()
            if left <= 0:
                break
            conn.process_data_events(time_limit=min(0.5, left))
        ch.basic_cancel(tag)
        conn.close()
        print("done:", self.stats, flush=True)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", required=True, type=float)
    ap.add_argument("--prefetch", type=int, default=5)
    a = ap.parse_args()
    ClaimConsumer(a.claim, a.max_seconds, a.prefetch).run()
