#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]"""
import argparse
import os
import sqlite3
import time

import pika
import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry


def make_session():
    # my usual client. Retry's default allowed_methods has no POST, so a 503 answer to a POST
    # comes straight back to me (the lab wants to decide itself: requeue once, then DLX);
    # only "could not even connect" is retried here, twice, quickly.
    retry = Retry(total=2, backoff_factor=0.1, status_forcelist=(500, 502, 503, 504),
                  raise_on_status=False)
    s = requests.Session()
    adapter = HTTPAdapter(max_retries=retry, pool_connections=1, pool_maxsize=1)
    s.mount("http://", adapter)
    s.mount("https://", adapter)
    s.headers["Content-Type"] = "application/json"
    return s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()

    deadline = time.monotonic() + args.max_seconds
    endpoint = args.claim.rstrip("/") + "/v1/claims"
    http = make_session()

    db = sqlite3.connect(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
    db.execute("create table if not exists processed(message_id text primary key)")
    db.commit()

    params = pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
    conn = pika.BlockingConnection(params)
    ch = conn.channel()
    ch.basic_qos(prefetch_count=args.prefetch)

    for method, props, body in ch.consume("claim.in", auto_ack=False, inactivity_timeout=0.5):
        if time.monotonic() > deadline:
            break
        if method is None:
            continue
        mid = props.message_id
        if mid is not None and db.execute(
                "select 1 from processed where message_id = ?", (mid,)).fetchone():
            ch.basic_ack(method.delivery_tag)
            continue

        read_timeout = min(5.0, max(1.0, deadline - time.monotonic()))
        try:
            status = http.post(endpoint, data=body, timeout=(1.0, read_timeout)).status_code
        except requests.RequestException as exc:
            print("transient:", type(exc).__name__, flush=True)
            status = None

        if status == 201:
            if mid is not None:
                db.execute("insert or ignore into processed values (?)", (mid,))
                db.commit()
            ch.basic_ack(method.delivery_tag)
        elif status == 422:
            ch.basic_reject(method.delivery_tag, requeue=False)
        elif method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)

    conn.close()
    db.close()
    http.close()


if __name__ == "__main__":
    main()
