"""consumer.py --claim URL --max-seconds S [--prefetch N]

Blocking consume generator on claim.in (no callbacks), manual acks, urllib for HTTP.
"""
import argparse
import http.client
import os
import socket
import sqlite3
import time
import urllib.error
import urllib.request

import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
HTTP_TIMEOUT = 4.0

SCHEMA = """
CREATE TABLE IF NOT EXISTS processed (
    message_id  TEXT PRIMARY KEY,
    http_status INTEGER NOT NULL,
    done_at     REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS attempts (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id  TEXT,
    redelivered INTEGER,
    outcome     TEXT,
    at          REAL
);
CREATE VIEW IF NOT EXISTS dead_lettered AS
    SELECT message_id, outcome, at FROM attempts WHERE outcome LIKE 'dlx%';
"""


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--claim", required=True)
    p.add_argument("--max-seconds", type=float, required=True)
    p.add_argument("--prefetch", type=int, default=5)
    return p.parse_args()


def call_claim_system(base, body, timeout):
    """-> ('status', code) or ('error', text) or ('cut', text) when our own deadline cut it."""
    req = urllib.request.Request(base.rstrip("/") + "/v1/claims", data=body, method="POST")
    req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            r.read()
            return "status", r.status
    except urllib.error.HTTPError as e:
        return "status", e.code
    except urllib.error.URLError as e:
        if isinstance(e.reason, (socket.timeout, TimeoutError)) and timeout < HTTP_TIMEOUT:
            return "cut", str(e)
        return "error", str(e.reason)
    except (socket.timeout, TimeoutError) as e:
        return ("cut" if timeout < HTTP_TIMEOUT else "error"), repr(e)
    except (OSError, http.client.HTTPException) as e:
        return "error", repr(e)


def main():
    args = parse()
    deadline = time.monotonic() + args.max_seconds

    db = sqlite3.connect(DB_PATH)
    db.execute("PRAGMA journal_mode=WAL")
    db.executescript(SCHEMA)
    db.commit()

    def log(mid, redelivered, outcome):
        db.execute("INSERT INTO attempts (message_id, redelivered, outcome, at) VALUES (?,?,?,?)",
                   (mid, int(redelivered), outcome, time.time()))
        db.commit()

    conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=args.prefetch)

    for method, props, body in ch.consume("claim.in", auto_ack=False, inactivity_timeout=0.5,
                                          arguments={"x-priority": 5}):
        if time.monotonic() >= deadline:
            break  # a delivery in hand now is simply not acked: cancel/close give it back
        if method is None:
            continue
        mid = props.message_id
        if mid and db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone():
            ch.basic_ack(method.delivery_tag)
            log(mid, method.redelivered, "duplicate-ack")
            continue

        left = deadline - time.monotonic()
        kind, value = call_claim_system(args.claim, body, min(HTTP_TIMEOUT, max(left, 0.1)))
        if kind == "cut":
            break
        if kind == "status" and value == 201:
            if mid:
                db.execute("INSERT OR IGNORE INTO processed VALUES (?,?,?)", (mid, value, time.time()))
                db.commit()
            ch.basic_ack(method.delivery_tag)
            log(mid, method.redelivered, "201-ack")
        elif kind == "status" and value == 422:
            ch.basic_reject(method.delivery_tag, requeue=False)
            log(mid, method.redelivered, "dlx-422")
        elif method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
            log(mid, True, f"dlx-second-failure {value}")
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)
            log(mid, False, f"requeue {value}")

    requeued = ch.cancel()
    conn.close()
    db.close()
    print(f"stopped; {requeued} prefetched message(s) handed back")


if __name__ == "__main__":
    main()
