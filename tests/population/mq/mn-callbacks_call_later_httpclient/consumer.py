#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]

Callback style consumer: basic_consume + start_consuming, the deadline is a
connection timer (call_later) that stops consuming.
"""
import getopt
import http.client
import os
import sqlite3
import sys
import time
import urllib.parse

import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
HTTP_TIMEOUT = 3.0


def parse_args(argv):
    try:
        opts, _ = getopt.getopt(argv, "", ["claim=", "max-seconds=", "prefetch="])
    except getopt.GetoptError as err:
        sys.exit("consumer.py: %s" % err)
    conf = {"prefetch": 5}
    for key, val in opts:
        if key == "--claim":
            conf["claim"] = val
        elif key == "--max-seconds":
            conf["max_seconds"] = float(val)
        elif key == "--prefetch":
            conf["prefetch"] = int(val)
    if "claim" not in conf or "max_seconds" not in conf:
        sys.exit("usage: consumer.py --claim URL --max-seconds S [--prefetch N]")
    return conf


class ClaimTarget:
    """POST /v1/claims with http.client; returns the status or None (transient)."""

    def __init__(self, base):
        u = urllib.parse.urlsplit(base)
        self.https = u.scheme == "https"
        self.host = u.hostname
        self.port = u.port
        self.path = u.path.rstrip("/") + "/v1/claims"

    def post(self, body, timeout):
        cls = http.client.HTTPSConnection if self.https else http.client.HTTPConnection
        conn = cls(self.host, self.port, timeout=timeout)
        try:
            conn.request("POST", self.path, body=body,
                         headers={"Content-Type": "application/json"})
            resp = conn.getresponse()
            resp.read()
            return resp.status
        except (OSError, http.client.HTTPException) as exc:
            print("claim system unreachable: %r" % exc, flush=True)
            return None
        finally:
            conn.close()


class Ledger:
    def __init__(self, path):
        folder = os.path.dirname(path)
        if folder:
            os.makedirs(folder, exist_ok=True)
        self.db = sqlite3.connect(path, timeout=30)
        with self.db:
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS handled ("
                " message_id TEXT NOT NULL,"
                " handled_at REAL NOT NULL,"
                " CONSTRAINT one_per_id UNIQUE (message_id))")

    def seen(self, mid):
        row = self.db.execute("SELECT count(*) FROM handled WHERE message_id = ?", (mid,)).fetchone()
        return row[0] > 0

    def remember(self, mid):
        with self.db:  # commits before we return (and before the ack)
            self.db.execute(
                "INSERT INTO handled (message_id, handled_at) VALUES (?, ?)"
                " ON CONFLICT (message_id) DO NOTHING", (mid, time.time()))


def main():
    conf = parse_args(sys.argv[1:])
    deadline = time.monotonic() + conf["max_seconds"]
    target = ClaimTarget(conf["claim"])
    ledger = Ledger(DB_PATH)

    connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    channel = connection.channel()
    channel.basic_qos(prefetch_count=conf["prefetch"])

    def on_claim(ch, method, props, body):
        left = deadline - time.monotonic()
        tag = method.delivery_tag
        if left <= 0:
            # out of time: give it back untouched, the timer stops us next
            ch.basic_nack(delivery_tag=tag, requeue=True)
            return
        mid = props.message_id
        if mid and ledger.seen(mid):
            ch.basic_ack(delivery_tag=tag)
            return
        status = target.post(body, min(HTTP_TIMEOUT, max(left, 0.2)))
        if status == 201:
            if mid:
                ledger.remember(mid)
            ch.basic_ack(delivery_tag=tag)
        elif status == 422:
            ch.basic_reject(delivery_tag=tag, requeue=False)
        elif method.redelivered:
            ch.basic_reject(delivery_tag=tag, requeue=False)
        else:
            ch.basic_nack(delivery_tag=tag, requeue=True)
        print("%s -> %s%s" % (mid, status, " (redelivered)" if method.redelivered else ""), flush=True)

    channel.basic_consume(queue="claim.in", on_message_callback=on_claim, auto_ack=False)
    connection.call_later(conf["max_seconds"], channel.stop_consuming)
    channel.start_consuming()
    connection.close()
    ledger.db.close()


if __name__ == "__main__":
    main()
