#!/usr/bin/env python3
# consumer.py --claim URL --max-seconds S [--prefetch N]
# stdlib http.client on purpose, no requests.
import http.client
import json
import os
import sqlite3
import sys
import time
import urllib.parse
import pika


def usage():
    sys.exit("usage: consumer.py --claim URL --max-seconds S [--prefetch N]")


def parse(argv):
    opts = {"--prefetch": "5"}
    i = 0
    while i < len(argv):
        a = argv[i]
        if "=" in a and a.startswith("--"):
            k, v = a.split("=", 1)
        elif a.startswith("--") and i + 1 < len(argv):
            k, v = a, argv[i + 1]
            i += 1
        else:
            usage()
        if k not in ("--claim", "--max-seconds", "--prefetch"):
            usage()
        opts[k] = v
        i += 1
    if "--claim" not in opts or "--max-seconds" not in opts:
        usage()
    return opts["--claim"], float(opts["--max-seconds"]), int(opts["--prefetch"])


def open_db(path):
    db = sqlite3.connect(path, isolation_level=None)  # autocommit: each statement is durable at once
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE IF NOT EXISTS done (id TEXT PRIMARY KEY) WITHOUT ROWID")
    return db


def post(base, body, timeout):
    """-> status code, or 0 when the claim system could not be reached / timed out"""
    u = urllib.parse.urlsplit(base)
    c = http.client.HTTPConnection(u.hostname, u.port or 80, timeout=timeout)
    try:
        c.request("POST", u.path.rstrip("/") + "/v1/claims", body,
                  {"Content-Type": "application/json"})
        r = c.getresponse()
        r.read()
        return r.status
    except (OSError, http.client.HTTPException) as e:
        print("  transport error:", repr(e), flush=True)
        return 0
    finally:
        c.close()


def main():
    base, max_s, prefetch = parse(sys.argv[1:])
    db = open_db(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
    url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    deadline = time.monotonic() + max_s

    conn = pika.BlockingConnection(pika.URLParameters(url))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=prefetch)

    for m, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
        left = deadline - time.monotonic()
        if left <= 0:
            break  # a message in hand stays unacked -> broker gives it back on close
        if m is None:
            continue
        mid = props.message_id or json.loads(body)["guid"]
        if db.execute("SELECT 1 FROM done WHERE id=?", (mid,)).fetchone():
            ch.basic_ack(m.delivery_tag)
            print("dup  ", mid, flush=True)
            continue
        st = post(base, body, max(0.5, min(3.0, left)))
        if st == 201:
            db.execute("INSERT OR IGNORE INTO done VALUES (?)", (mid,))
            ch.basic_ack(m.delivery_tag)
            verdict = "ack"
        elif st == 422 or m.redelivered:
            ch.basic_reject(m.delivery_tag, requeue=False)
            verdict = "dlx"
        else:
            ch.basic_nack(m.delivery_tag, requeue=True)
            verdict = "requeue"
        print("%-5s" % st, mid, verdict, flush=True)

    pending = ch.cancel()  # nacks (requeue) what pika still buffers
    print("stop, %d buffered message(s) given back" % pending, flush=True)
    conn.close()
    db.close()


if __name__ == "__main__":
    main()
