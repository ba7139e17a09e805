#!/usr/bin/env python3
# ./consumer.py --claim http://127.0.0.1:9202 --max-seconds 30 [--prefetch 5]
import argparse, atexit, os, sqlite3, sys, time, urllib.parse
import pika, requests

ap = argparse.ArgumentParser()
ap.add_argument("--claim", required=True)
ap.add_argument("--max-seconds", type=float, required=True)
ap.add_argument("--prefetch", type=int, default=5)
a = ap.parse_args()
stop = time.time() + a.max_seconds
post_url = a.claim.rstrip("/") + "/v1/claims"

dbfile = os.path.abspath(os.getenv("EAI_MQ_DB") or "/root/eaimw/mq/processed.db")
os.makedirs(os.path.dirname(dbfile), exist_ok=True)
db = sqlite3.connect("file:" + urllib.parse.quote(dbfile) + "?mode=rwc", uri=True)
db.execute("create table if not exists done(id text primary key)")
db.commit()

conn = pika.BlockingConnection(pika.URLParameters(os.getenv("EAI_AMQP_URL") or "amqp://guest:guest@127.0.0.1:5672/%2F"))
atexit.register(db.close)
atexit.register(conn.close)        # runs first (LIFO): unacked go back to the queue
ch = conn.channel()
ch.basic_qos(prefetch_count=a.prefetch, global_qos=True)   # one consumer on the channel anyway

for m, p, body in ch.consume("claim.in", inactivity_timeout=0.5):
    if time.time() >= stop:
        sys.exit(0)
    if m is None:
        continue
    mid = p.message_id
    if mid and db.execute("select exists(select 1 from done where id=?)", (mid,)).fetchone()[0]:
        ch.basic_ack(m.delivery_tag)
        continue
    left = max(0.2, stop - time.time())
    try:
        code = requests.post(post_url, data=body, headers={"content-type": "application/json"},
                             timeout=(min(1.5, left), min(3.5, left))).status_code
    except requests.RequestException as e:
        code = "ERR " + type(e).__name__
    print(mid, code, "redelivered" if m.redelivered else "", flush=True)
    if code == 201:
        if mid:
            db.execute("insert into done(id) select ? where not exists(select 1 from done where id=?)", (mid, mid))
            db.commit()
        ch.basic_ack(m.delivery_tag)
    elif code == 422 or m.redelivered:
        ch.basic_reject(m.delivery_tag, requeue=False)
    else:
        ch.basic_nack(m.delivery_tag, requeue=True)
