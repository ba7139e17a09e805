#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]

Callback style: basic_consume + start_consuming; the deadline is a call_later timer
on the connection that stops consuming.
"""
import argparse
import functools
import os
import sqlite3
import sys
import time

import pika
import requests

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
HTTP_TIMEOUT = 3.0


def open_db(path):
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE IF NOT EXISTS processed ("
        " message_id TEXT PRIMARY KEY,"
        " http_status INTEGER NOT NULL,"
        " processed_at REAL NOT NULL)"
    )
    db.commit()
    return db


def already_done(db, message_id):
    row = db.execute("SELECT 1 FROM processed WHERE message_id = ?", (message_id,)).fetchone()
    return row is not None


def remember(db, message_id, status):
    with db:  # commits
        db.execute(
            "INSERT OR REPLACE INTO processed (message_id, http_status, processed_at) VALUES (?, ?, ?)",
            (message_id, status, time.time()),
        )


def transient(ch, method, why):
    if method.redelivered:
        print(f"  {why} again on a redelivered message -> DLX", flush=True)
        ch.basic_reject(delivery_tag=method.delivery_tag, requeue=False)
    else:
        print(f"  {why} -> requeue once", flush=True)
        ch.basic_nack(delivery_tag=method.delivery_tag, requeue=True)


def on_message(ch, method, props, body, *, state):
    left = state["deadline"] - time.monotonic()
    if left <= 0:
        # time is up: leave it unacked, the broker gives it back when we close
        ch.stop_consuming()
        return
    mid = props.message_id
    print(f"got {mid} tag={method.delivery_tag} redelivered={method.redelivered}", flush=True)
    if mid and already_done(state["db"], mid):
        print("  already processed -> ack only", flush=True)
        ch.basic_ack(delivery_tag=method.delivery_tag)
        return
    try:
        resp = state["http"].post(
            state["endpoint"],
            data=body,
            headers={"Content-Type": "application/json"},
            timeout=(1.0, max(0.2, min(HTTP_TIMEOUT, left))),
        )
    except requests.RequestException as exc:
        transient(ch, method, type(exc).__name__)
        return
    print(f"  claim system said {resp.status_code}", flush=True)
    if resp.status_code == 201:
        if mid:
            remember(state["db"], mid, resp.status_code)
        ch.basic_ack(delivery_tag=method.delivery_tag)
    elif resp.status_code == 422:
        ch.basic_reject(delivery_tag=method.delivery_tag, requeue=False)
    else:
        transient(ch, method, f"HTTP {resp.status_code}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()

    state = {
        "deadline": time.monotonic() + args.max_seconds,
        "db": open_db(DB_PATH),
        "http": requests.Session(),
        "endpoint": args.claim.rstrip("/") + "/v1/claims",
    }
    connection = pika.BlockingConnection(pika.URLParameters(URL))
    channel = connection.channel()
    channel.basic_qos(prefetch_count=args.prefetch)
    channel.basic_consume(
        queue="claim.in",
        on_message_callback=functools.partial(on_message, state=state),
        auto_ack=False,
    )
    connection.call_later(max(0.0, state["deadline"] - time.monotonic()), channel.stop_consuming)
    print(f"consuming claim.in for {args.max_seconds}s (prefetch {args.prefetch})", flush=True)
    try:
        channel.start_consuming()
    finally:
        connection.close()
        state["db"].close()
    print("deadline reached, bye", flush=True)


if __name__ == "__main__":
    main()
