#!/usr/bin/env python3
# consumer.py --claim URL --max-seconds S [--prefetch N]
import getopt
import http.client
import os
import sqlite3
import sys
import time
import urllib.parse

import pika

try:
    opts, rest = getopt.getopt(sys.argv[1:], "", ["claim=", "max-seconds=", "prefetch="])
    opts = dict(opts)
    claim_url = urllib.parse.urlsplit(opts["--claim"])
    max_seconds = float(opts["--max-seconds"])
    prefetch = int(opts.get("--prefetch", "5"))
    if prefetch < 1 or rest or claim_url.scheme not in ("http", "https"):
        raise ValueError
except (getopt.GetoptError, KeyError, ValueError):
    print("usage: consumer.py --claim http://host:port --max-seconds S [--prefetch N]",
          file=sys.stderr)
    sys.exit(2)

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
HTTP_TIMEOUT = 5
POST_PATH = claim_url.path.rstrip("/") + "/v1/claims"
Conn = http.client.HTTPSConnection if claim_url.scheme == "https" else http.client.HTTPConnection

db = sqlite3.connect(DB, isolation_level=None)
db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT NOT NULL UNIQUE, ts INTEGER)")

amqp = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
ch = amqp.channel()
ch.basic_qos(prefetch_count=prefetch)

started = time.time()
counts = {}
for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
    if time.time() - started >= max_seconds:
        break
    if method is None:
        continue
    tag, mid = method.delivery_tag, props.message_id

    if mid and db.execute("SELECT count(*) FROM processed WHERE message_id=?", (mid,)).fetchone()[0]:
        ch.basic_ack(tag)
        counts["dup"] = counts.get("dup", 0) + 1
        print("dup ", mid, "ack only")
        continue

    status = None
    h = Conn(claim_url.hostname, claim_url.port, timeout=HTTP_TIMEOUT)
    try:
        h.request("POST", POST_PATH, body=body,
                  headers={"Content-Type": "application/json", "Connection": "close"})
        resp = h.getresponse()
        resp.read()
        status = resp.status
    except (OSError, http.client.HTTPException) as e:  # refused, timeout, reset, bad answer
        print("http", mid, type(e).__name__, e, file=sys.stderr)
    finally:
        h.close()

    if status == 201:
        db.execute("BEGIN")
        db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?)", (mid, int(time.time())))
        db.execute("COMMIT")
        ch.basic_ack(tag)
        result = "acked"
    elif status == 422:
        ch.basic_reject(tag, requeue=False)
        result = "dead (422)"
    elif method.redelivered:
        ch.basic_reject(tag, requeue=False)
        result = "dead (failed twice)"
    else:
        ch.basic_nack(tag, requeue=True)
        result = "requeued"
    counts[result] = counts.get(result, 0) + 1
    print(status, mid, result)

ch.cancel()
amqp.close()
db.close()
print("done after %.1fs: %s" % (time.time() - started, counts))
