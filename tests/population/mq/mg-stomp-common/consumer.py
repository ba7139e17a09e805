# python3 consumer.py --claim http://127.0.0.1:9202 --max-seconds 60 [--prefetch 5]
import argparse
import http.client
import json
import socket
import sqlite3
import time
import urllib.parse

from mqcommon import DB_PATH, IN_QUEUE, connect

p = argparse.ArgumentParser()
p.add_argument("--claim", required=True)
p.add_argument("--max-seconds", type=float, required=True)
p.add_argument("--prefetch", type=int, default=5)
args = p.parse_args()

target = urllib.parse.urlsplit(args.claim)

# key/value store: "done:<message_id>" -> json describing the outcome
store = sqlite3.connect(DB_PATH)
store.execute("CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, v TEXT NOT NULL)")
store.commit()


def already_done(mid):
    return store.execute("SELECT v FROM kv WHERE k = ?", ("done:" + mid,)).fetchone() is not None


def mark_done(mid):
    store.execute("INSERT OR REPLACE INTO kv VALUES (?, ?)", ("done:" + mid, json.dumps({"status": 201, "at": time.time()})))
    store.commit()


def send(body, timeout):
    """POST to the claim system; returns the status code or an error name"""
    c = http.client.HTTPConnection(target.hostname, target.port or 80, timeout=timeout)
    try:
        c.request("POST", target.path.rstrip("/") + "/v1/claims", body=body, headers={"Content-Type": "application/json"})
        return c.getresponse().status
    except (OSError, http.client.HTTPException) as e:  # refused / timeout / broken
        return type(e).__name__
    finally:
        c.close()


conn = connect()
ch = conn.channel()
ch.basic_qos(prefetch_count=args.prefetch)
stop_at = time.time() + args.max_seconds

for method, props, body in ch.consume(IN_QUEUE, inactivity_timeout=1):
    remaining = stop_at - time.time()
    if remaining <= 0:
        break
    if method is None:
        continue
    mid = props.message_id or ""
    tag = method.delivery_tag
    if mid and already_done(mid):
        print("[dup]", mid)
        ch.basic_ack(tag)
        continue
    result = send(body, min(2.0, remaining))
    if result == 201:
        mark_done(mid)
        ch.basic_ack(tag)
        print("[ok]", mid)
    elif result == 422:
        ch.basic_reject(tag, requeue=False)
        print("[rejected->dlq]", mid)
    elif method.redelivered:
        ch.basic_reject(tag, requeue=False)
        print("[failed twice->dlq]", mid, result)
    else:
        ch.basic_reject(tag, requeue=True)
        print("[retry]", mid, result)

conn.close()
print("bye")
