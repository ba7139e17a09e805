#!/usr/bin/env python3
# usage: consumer.py --claim URL --max-seconds S [--prefetch N]
import os
import sqlite3
import sys
import time
import urllib.error
import urllib.request
import pika

opt = {"--claim": "http://127.0.0.1:9202", "--max-seconds": "60", "--prefetch": "5"}
a = sys.argv[1:]
while a:
    k = a.pop(0)
    if "=" in k:
        k, v = k.split("=", 1)
    else:
        v = a.pop(0)
    if k not in opt:
        sys.exit("unknown option " + k)
    opt[k] = v
url = opt["--claim"].rstrip("/") + "/v1/claims"
end = time.time() + float(opt["--max-seconds"])

db = sqlite3.connect(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
db.execute("create table if not exists done (id text primary key)")
db.commit()

c = pika.BlockingConnection(pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
ch = c.channel()
ch.basic_qos(prefetch_count=int(opt["--prefetch"]))
for m, p, body in ch.consume("claim.in", inactivity_timeout=0.5):
    if time.time() >= end:
        break
    if m is None:
        continue
    mid = p.message_id
    if mid and db.execute("select 1 from done where id = ?", (mid,)).fetchone():
        ch.basic_ack(m.delivery_tag)
        print(mid, "seen before, ack")
        continue
    try:
        req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=3) as r:
            code = r.status
    except urllib.error.HTTPError as e:
        code = e.code
    except Exception as e:  # refused, timeout
        print(mid, "call failed:", e)
        code = None
    if code == 201:
        db.execute("insert or ignore into done values (?)", (mid,))
        db.commit()
        ch.basic_ack(m.delivery_tag)
    elif code == 422:
        ch.basic_reject(m.delivery_tag, requeue=False)
    elif m.redelivered:
        ch.basic_reject(m.delivery_tag, requeue=False)
    else:
        ch.basic_nack(m.delivery_tag, requeue=True)
    print(mid, code, "redelivered" if m.redelivered else "")
ch.cancel()
c.close()
