import argparse
import os
import sqlite3
import time

import pika
import requests

MODE = "rejpurge"
ap = argparse.ArgumentParser()
ap.add_argument("--claim", required=True)
ap.add_argument("--max-seconds", type=float, required=True)
ap.add_argument("--prefetch", type=int, default=5)
a = ap.parse_args()
url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
dbp = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
db = sqlite3.connect(dbp, timeout=60)
db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, at REAL)")
db.commit()
c = pika.BlockingConnection(pika.URLParameters(url))
ch = c.channel()
ch.basic_qos(prefetch_count=a.prefetch)
end = time.monotonic() + a.max_seconds
rej: set[object] = set()
if MODE == "chconf":
    ch2 = c.channel()
    PQ = ch2.queue_declare("", exclusive=True).method.queue
    d2 = 0


def seen(mid):
    return db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone() is not None


def post(body):
    try:
        return requests.post(
            a.claim.rstrip("/") + "/v1/claims",
            data=body,
            headers={"Content-Type": "application/json"},
            timeout=min(5, max(0.5, end - time.monotonic())),
        ).status_code
    except requests.RequestException:
        return None


def early_ack(m):
    if MODE == "multi":
        ch.basic_ack(m.delivery_tag, multiple=True)
    elif MODE == "zero":
        ch.basic_ack(0, multiple=True)
    elif MODE == "chconf":
        k = m.delivery_tag
        while True:
            ch2.basic_publish("", PQ, b"x", pika.BasicProperties(message_id="dummy-%d" % k))
            while True:
                g = ch2.basic_get(PQ)
                if g[0] is not None:
                    break
            if g[0].delivery_tag >= k:
                break
        ch.basic_ack(k)
        ch2.basic_ack(g[0].delivery_tag, multiple=True)
    elif MODE in ("rej", "rejpurge"):
        ch.basic_reject(m.delivery_tag, requeue=False)
        if MODE == "rejpurge":
            for _ in range(20):
                n = ch.queue_declare("claim.dead", passive=True).method.message_count
                if n >= 1:
                    break
                c.sleep(0.01)
            if n == 1:
                ch.queue_purge("claim.dead")
    elif MODE in ("rejget", "rejgetnoack"):
        ch.basic_reject(m.delivery_tag, requeue=False)
        for _ in range(50):
            n = ch.queue_declare("claim.dead", passive=True).method.message_count
            if n >= 1:
                break
            c.sleep(0.01)
        if n == 1:
            g = ch.basic_get("claim.dead", auto_ack=(MODE == "rejgetnoack"))
            if g[0] is not None and MODE == "rejget":
                ch.basic_ack(g[0].delivery_tag)
    else:
        ch.basic_ack(m.delivery_tag)


def handle(m, p, body, noack=False):
    mid = p.message_id
    iscopy = bool(p.headers and p.headers.get("x-copy"))
    settle = (lambda f: None) if noack else (lambda f: f())
    if not iscopy:
        props = pika.BasicProperties(
            delivery_mode=2, message_id=mid, content_type=p.content_type, headers={"x-copy": 1}
        )
        ch.basic_publish("eai.claim", "claim", body, props)
        if not noack:
            early_ack(m)
        if seen(mid):
            return
        st = post(body)
        if st == 201:
            db.execute("INSERT OR IGNORE INTO processed VALUES (?,?)", (mid, time.time()))
            db.commit()
        elif st == 422:
            rej.add(mid)
        return
    # copy
    if mid in rej:
        settle(lambda: ch.basic_reject(m.delivery_tag, requeue=False))
        return
    if seen(mid):
        settle(lambda: ch.basic_ack(m.delivery_tag))
        return
    st = post(body)
    if st == 201:
        db.execute("INSERT OR IGNORE INTO processed VALUES (?,?)", (mid, time.time()))
        db.commit()
        settle(lambda: ch.basic_ack(m.delivery_tag))
    else:
        settle(lambda: ch.basic_reject(m.delivery_tag, requeue=False))


if MODE in ("get", "getnoack"):
    while time.monotonic() < end:
        m, p, body = ch.basic_get("claim.in", auto_ack=(MODE == "getnoack"))
        if m is None:
            c.sleep(0.2)
            continue
        handle(m, p, body, noack=(MODE == "getnoack"))
elif MODE == "autoack":
    for m, p, body in ch.consume("claim.in", auto_ack=True, inactivity_timeout=0.5):
        if time.monotonic() > end:
            break
        if m is None:
            continue
        handle(m, p, body, noack=True)
else:
    for m, p, body in ch.consume("claim.in", inactivity_timeout=0.5):
        if time.monotonic() > end:
            break
        if m is None:
            continue
        handle(m, p, body)
try:
    ch.cancel()
    c.close()
except Exception:
    pass
