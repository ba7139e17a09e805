#!/usr/bin/env python3
# consumer.py --claim URL --max-seconds S [--prefetch N]
#
# stdlib + pika only. notes:
#  - run limit: setitimer(ITIMER_REAL) -> SIGALRM -> flag. the loop looks at the flag on
#    every turn (a message or a 0.25s idle tick). the HTTP timeout is capped by the time
#    left, so a hung claim system can't keep us past the limit either.
#  - http.client with one HTTPConnection object reused for every call. the claim system
#    answers HTTP/1.0 so it closes after each answer and http.client reopens by itself;
#    after any error the connection is closed by hand so the next call starts clean.
#  - processed ids live in a key/value table: k = "done:<message_id>", v = json.
#  - a transient failure (503 / refused / timeout) gets one more chance: requeue the
#    first time, dead-letter when it fails again. "again" = the broker flagged it
#    redelivered, or this process already saw it fail once.
import argparse
import http.client
import json
import os
import signal
import sqlite3
import sys
import time
import urllib.parse

import pika

STOP = False


def on_alarm(signum, frame):
    global STOP
    STOP = True


def say(*parts):
    sys.stderr.write(time.strftime("%H:%M:%S ") + " ".join(str(p) for p in parts) + "\n")


class KV:
    def __init__(self, path):
        self.db = sqlite3.connect(path, timeout=30)
        with self.db:
            self.db.execute("CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, v TEXT NOT NULL)")
            self.db.execute("INSERT OR IGNORE INTO kv (k, v) VALUES ('meta:schema', '1')")

    def get(self, k):
        row = self.db.execute("SELECT v FROM kv WHERE k = ?", (k,)).fetchone()
        return None if row is None else row[0]

    def put(self, k, v):
        with self.db:  # commits on exit
            self.db.execute("INSERT OR REPLACE INTO kv (k, v) VALUES (?, ?)", (k, v))


class ClaimSystem:
    def __init__(self, base):
        u = urllib.parse.urlsplit(base)
        self.path = u.path.rstrip("/") + "/v1/claims"
        cls = http.client.HTTPSConnection if u.scheme == "https" else http.client.HTTPConnection
        self.conn = cls(u.hostname, u.port or (443 if u.scheme == "https" else 80), timeout=5)

    def post(self, body, timeout):
        """HTTP status, or None when there was no answer (refused, timeout, reset)."""
        self.conn.timeout = timeout
        if self.conn.sock is not None:
            self.conn.sock.settimeout(timeout)
        try:
            self.conn.request("POST", self.path, body=body,
                              headers={"Content-Type": "application/json"})
            resp = self.conn.getresponse()
            resp.read()
            return resp.status
        except (OSError, http.client.HTTPException) as e:
            say("http error:", repr(e))
            self.conn.close()
            return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    a = ap.parse_args()

    end = time.monotonic() + a.max_seconds
    signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, max(a.max_seconds, 0.001))

    kv = KV(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
    claims = ClaimSystem(a.claim)
    failed_once = set()

    conn = pika.BlockingConnection(pika.URLParameters(
        os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=a.prefetch)

    for method, props, body in ch.consume("claim.in", auto_ack=False, inactivity_timeout=0.25):
        if STOP:
            break
        if method is None:
            continue
        tag, mid = method.delivery_tag, props.message_id

        if mid and kv.get("done:" + mid) is not None:
            ch.basic_ack(tag)
            say("dup", mid, "-> ack")
            continue

        status = claims.post(body, max(0.1, min(3.0, end - time.monotonic())))
        if status is None and time.monotonic() >= end:
            ch.basic_nack(tag, requeue=True)   # cut by the run limit, not a real failure
            say("cut at the limit", mid, "-> requeue")
            break
        if status == 201:
            if mid:
                kv.put("done:" + mid, json.dumps({"at": time.time(), "status": 201}))
            ch.basic_ack(tag)
            failed_once.discard(mid)
            say("201", mid, "-> ack")
        elif status == 422:
            ch.basic_reject(tag, requeue=False)
            say("422", mid, "-> dlx")
        elif method.redelivered or mid in failed_once:
            ch.basic_reject(tag, requeue=False)
            failed_once.discard(mid)
            say(status, mid, "again -> dlx")
        else:
            failed_once.add(mid)
            ch.basic_nack(tag, requeue=True)
            say(status, mid, "-> requeue")

    signal.setitimer(signal.ITIMER_REAL, 0)
    try:
        ch.cancel()   # buffered, unprocessed deliveries go back now
        conn.close()
    except Exception as e:  # closing is best effort; the broker requeues anyway
        say("close:", repr(e))
    say("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
