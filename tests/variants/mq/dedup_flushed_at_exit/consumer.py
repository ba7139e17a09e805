#!/usr/bin/env python3
"""청구 소비자. 처리한 message_id 는 메모리(set)에 두고, 끝날 때 SQLite 에 한꺼번에 저장한다
(매번 디스크에 쓰면 느리니까)."""

import argparse
import os
import sqlite3
import time
import urllib.error
import urllib.request

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")


def load_done(db):
    db.execute("CREATE TABLE IF NOT EXISTS done (message_id TEXT PRIMARY KEY)")
    db.commit()
    return {row[0] for row in db.execute("SELECT message_id FROM done")}


def save_done(db, done):
    db.executemany("INSERT OR IGNORE INTO done (message_id) VALUES (?)", [(m,) for m in done])
    db.commit()


def send(claim_url, body):
    req = urllib.request.Request(claim_url + "/v1/claims", data=body, method="POST")
    req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=2) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except OSError as e:
        print("청구 시스템 응답 없음:", e, flush=True)
        return 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--claim", required=True)
    p.add_argument("--max-seconds", type=float, required=True)
    p.add_argument("--prefetch", type=int, default=5)
    a = p.parse_args()

    db = sqlite3.connect(DB)
    done = load_done(db)
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=a.prefetch)
    end = time.time() + a.max_seconds
    try:
        for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
            if method is not None:
                mid = props.message_id
                if mid in done:
                    ch.basic_ack(method.delivery_tag)
                else:
                    code = send(a.claim, body)
                    if code == 201:
                        done.add(mid)
                        ch.basic_ack(method.delivery_tag)
                    elif code == 422:
                        ch.basic_reject(method.delivery_tag, requeue=False)
                    elif method.redelivered:
                        ch.basic_reject(method.delivery_tag, requeue=False)
                    else:
                        ch.basic_nack(method.delivery_tag, requeue=True)
                    print(mid, code, flush=True)
            if time.time() > end:
                break
    finally:
        save_done(db, done)
        db.close()
        conn.close()


if __name__ == "__main__":
    main()
