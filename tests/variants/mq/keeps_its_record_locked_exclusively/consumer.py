import argparse
import os
import sqlite3
import time

import pika
import requests

ap = argparse.ArgumentParser()
ap.add_argument("--claim", required=True)
ap.add_argument("--max-seconds", type=float, required=True)
ap.add_argument("--prefetch", type=int, default=5)
a = ap.parse_args()
url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
dbp = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
db = sqlite3.connect(dbp, timeout=60)
db.execute("PRAGMA locking_mode=EXCLUSIVE")
db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, at REAL)")
db.commit()
c = pika.BlockingConnection(pika.URLParameters(url))
ch = c.channel()
ch.basic_qos(prefetch_count=a.prefetch)
end = time.monotonic() + a.max_seconds


def seen(mid):
    return db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone() is not None


for m, p, body in ch.consume("claim.in", inactivity_timeout=0.5):
    if time.monotonic() > end:
        break
    if m is None:
        continue
    mid = p.message_id
    if mid and seen(mid):
        ch.basic_ack(m.delivery_tag)
        continue
    try:
        r = requests.post(
            a.claim.rstrip("/") + "/v1/claims",
            data=body,
            headers={"Content-Type": "application/json"},
            timeout=min(5, max(0.5, end - time.monotonic())),
        )
        st: int | None = r.status_code
    except requests.RequestException:
        st = None
    if st == 201:
        db.execute("INSERT OR IGNORE INTO processed VALUES (?,?)", (mid, time.time()))
        db.commit()
        ch.basic_ack(m.delivery_tag)
    elif st == 422:
        ch.basic_reject(m.delivery_tag, requeue=False)
    elif m.redelivered:
        ch.basic_reject(m.delivery_tag, requeue=False)
    else:
        ch.basic_nack(m.delivery_tag, requeue=True)
try:
    ch.cancel()
    c.close()
except Exception:
    pass
