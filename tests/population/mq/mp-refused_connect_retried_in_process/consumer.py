#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]

Notes to self
- "refused" = nothing reached the claim system, so I knock once more (0.3 s later) before
  calling it a failure. It's still a connection failure after that -> the step-6 rule.
- step 6 rule: first transient failure -> nack(requeue); redelivered + failure -> DLX.
- done table: message_id + what we got back, written (committed) before the ack.
"""
import argparse
import os
import sqlite3
import time
import urllib.error
import urllib.request

import pika

AMQP = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DBFILE = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")


def send(url, body, timeout=4.0):
    """-> HTTP status code, or None when the call failed (refused twice, timeout, reset)."""
    for knock in (1, 2):
        req = urllib.request.Request(url, data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status
        except urllib.error.HTTPError as e:
            return e.code
        except urllib.error.URLError as e:
            if isinstance(e.reason, ConnectionRefusedError) and knock == 1:
                time.sleep(0.3)
                continue
            return None
        except OSError:  # read timeout, connection reset
            return None
    return None


def transient(ch, method):
    """Step 6: put it back once; a redelivered message that fails again goes to eai.dlx."""
    if method.redelivered:
        ch.basic_reject(delivery_tag=method.delivery_tag, requeue=False)
        return "dead"
    ch.basic_nack(delivery_tag=method.delivery_tag, requeue=True)
    return "requeued"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=int, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    a = ap.parse_args()
    url = a.claim.rstrip("/") + "/v1/claims"

    db = sqlite3.connect(DBFILE)
    db.execute("""CREATE TABLE IF NOT EXISTS done (
                      message_id  TEXT NOT NULL PRIMARY KEY,
                      http_status INTEGER NOT NULL,
                      body_bytes  INTEGER,
                      acked_at    TEXT DEFAULT CURRENT_TIMESTAMP)""")
    db.commit()

    conn = pika.BlockingConnection(pika.URLParameters(AMQP))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=a.prefetch)
    t_end = time.time() + a.max_seconds

    for method, props, body in ch.consume(queue="claim.in", inactivity_timeout=0.5):
        if time.time() >= t_end:
            break
        if method is None:
            continue
        mid = props.message_id
        seen = db.execute("SELECT http_status FROM done WHERE message_id = ?", (mid,)).fetchone()
        if seen:
            ch.basic_ack(delivery_tag=method.delivery_tag)
            print(mid, "already done -> ack only")
            continue
        code = send(url, body)
        if code == 201:
            db.execute("INSERT INTO done (message_id, http_status, body_bytes) VALUES (?, ?, ?) "
                       "ON CONFLICT(message_id) DO NOTHING", (mid, code, len(body)))
            db.commit()
            ch.basic_ack(delivery_tag=method.delivery_tag)
            print(mid, "201 -> ack")
        elif code == 422:
            ch.basic_reject(delivery_tag=method.delivery_tag, requeue=False)
            print(mid, "422 -> dlx")
        else:
            print(mid, code, "->", transient(ch, method))

    conn.close()
    db.close()


if __name__ == "__main__":
    main()
