#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]

basic_consume + start_consuming; connection.call_later(S) stops consuming. Each callback also
looks at the clock, so a busy queue cannot keep the run going past S.
"""
import getopt
import os
import sqlite3
import sys
import time
import urllib.error
import urllib.request
import http.client

import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
CALL_TIMEOUT = 4.0

# what to do with a delivery, by (outcome, redelivered)
ACK, REQUEUE, DEAD = "ack", "requeue", "dead"
POLICY = {
    ("accepted", False): ACK,
    ("accepted", True): ACK,
    ("rejected", False): DEAD,     # 422: business rejection, never requeue
    ("rejected", True): DEAD,
    ("transient", False): REQUEUE,  # 503 / refused / timeout: one more chance
    ("transient", True): DEAD,      # already had it
}


def usage(msg=None):
    if msg:
        print(msg, file=sys.stderr)
    print(__doc__.strip().splitlines()[0], file=sys.stderr)
    sys.exit(2)


def options(argv):
    try:
        opts, rest = getopt.getopt(argv, "", ["claim=", "max-seconds=", "prefetch="])
    except getopt.GetoptError as e:
        usage(str(e))
    if rest:
        usage(f"unexpected: {rest}")
    o = dict(opts)
    if "--claim" not in o or "--max-seconds" not in o:
        usage()
    try:
        return o["--claim"].rstrip("/"), float(o["--max-seconds"]), int(o.get("--prefetch", 5))
    except ValueError:
        usage("--max-seconds is a number, --prefetch an integer")


class Done:
    def __init__(self, path):
        self.db = sqlite3.connect(path, isolation_level=None)  # autocommit; I write the BEGINs
        self.db.execute("PRAGMA synchronous=EXTRA")
        self.db.execute("CREATE TABLE IF NOT EXISTS done ("
                        " message_id TEXT NOT NULL,"
                        " first_done REAL NOT NULL,"
                        " PRIMARY KEY (message_id))")

    def __contains__(self, mid):
        return self.db.execute("SELECT 1 FROM done WHERE message_id = ?", (mid,)).fetchone() is not None

    def add(self, mid):
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.execute("INSERT INTO done (message_id, first_done) VALUES (?, ?) "
                            "ON CONFLICT (message_id) DO NOTHING", (mid, time.time()))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise


def classify(url, body, timeout):
    req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            code = r.status
    except urllib.error.HTTPError as e:
        code = e.code
    except (OSError, http.client.HTTPException) as e:  # URLError, refused, socket timeout, reset
        return "transient", repr(e)
    if code == 201:
        return "accepted", code
    if code == 422:
        return "rejected", code
    return "transient", code


def main():
    claim_base, max_seconds, prefetch = options(sys.argv[1:])
    url = claim_base + "/v1/claims"
    deadline = time.monotonic() + max_seconds
    done = Done(DB_PATH)

    conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=prefetch)

    def on_message(ch, method, props, body):
        left = deadline - time.monotonic()
        if left < 0.3:
            ch.stop_consuming()  # not handled: it goes back when the channel closes
            return
        mid = props.message_id
        if mid and mid in done:
            ch.basic_ack(method.delivery_tag)
            print(f"{mid}: duplicate -> ack", flush=True)
            return
        outcome, detail = classify(url, body, min(CALL_TIMEOUT, left))
        action = POLICY[(outcome, bool(method.redelivered))]
        if action == ACK:
            if mid:
                done.add(mid)  # record first, then ack
            ch.basic_ack(method.delivery_tag)
        elif action == REQUEUE:
            ch.basic_nack(method.delivery_tag, requeue=True)
        else:
            ch.basic_reject(method.delivery_tag, requeue=False)
        print(f"{mid}: {outcome} ({detail}) redelivered={method.redelivered} -> {action}", flush=True)

    ch.basic_consume("claim.in", on_message, auto_ack=False)
    conn.call_later(max_seconds, ch.stop_consuming)
    ch.start_consuming()
    conn.close()


if __name__ == "__main__":
    main()
