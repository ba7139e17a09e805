#!/usr/bin/env python3
import argparse, os, socket, sqlite3, time, urllib.error, urllib.request
import pika

OK, REJECT, TRANSIENT = "ok", "reject", "transient"


class Claims:
    def __init__(s, base): s.url = base.rstrip("/") + "/v1/claims"

    def send(s, body, timeout):
        rq = urllib.request.Request(s.url, data=body, method="POST",
                                    headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(rq, timeout=timeout) as r: code = r.status
        except urllib.error.HTTPError as e: code = e.code          # 4xx/5xx come as exceptions
        except (urllib.error.URLError, OSError): return TRANSIENT   # refused, socket.timeout, reset
        return OK if code == 201 else REJECT if code == 422 else TRANSIENT


class Seen:
    def __init__(s, path):
        s.db = sqlite3.connect(path)
        s.db.execute("CREATE TABLE IF NOT EXISTS seen (mid TEXT PRIMARY KEY, n INTEGER NOT NULL DEFAULT 1)")
        s.db.commit()

    def __contains__(s, mid):
        return s.db.execute("SELECT 1 FROM seen WHERE mid=?", (mid,)).fetchone() is not None

    def add(s, mid):
        s.db.execute("INSERT INTO seen (mid) VALUES (?) ON CONFLICT(mid) DO UPDATE SET n = n + 1", (mid,))
        s.db.commit()


class Consumer:
    def __init__(s, a):
        s.a, s.end = a, time.monotonic() + a.max_seconds
        s.claims, s.seen = Claims(a.claim), Seen(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))

    def one(s, ch, m, p, b):
        mid = p.message_id
        if mid and mid in s.seen: return ch.basic_ack(m.delivery_tag)
        r = s.claims.send(b, max(0.5, min(5.0, s.end - time.monotonic())))
        if r == OK:
            if mid: s.seen.add(mid)
            ch.basic_ack(m.delivery_tag)
        elif r == REJECT or m.redelivered: ch.basic_reject(m.delivery_tag, requeue=False)
        else: ch.basic_nack(m.delivery_tag, requeue=True)
        print(mid, r, "redelivered" if m.redelivered else "", flush=True)

    def run(s):
        c = pika.BlockingConnection(pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
        ch = c.channel(); ch.basic_qos(prefetch_count=s.a.prefetch)
        for m, p, b in ch.consume("claim.in", inactivity_timeout=0.5):
            if time.monotonic() >= s.end: break
            if m: s.one(ch, m, p, b)
        c.close()


ap = argparse.ArgumentParser()
ap.add_argument("--claim", required=True)
ap.add_argument("--max-seconds", type=float, required=True)
ap.add_argument("--prefetch", type=int, default=5)
Consumer(ap.parse_args()).run()
