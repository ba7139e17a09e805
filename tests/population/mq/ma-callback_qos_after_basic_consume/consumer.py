import argparse
import os
import sqlite3
import time

import pika
import requests

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")


def make_handler(endpoint, db, deadline):
    def on_message(ch, method, props, body):
        left = deadline - time.monotonic()
        if left <= 0:
            ch.stop_consuming()  # unacked ones go back to the queue when we close
            return
        mid = props.message_id
        if mid and db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone():
            ch.basic_ack(method.delivery_tag)
            return
        try:
            r = requests.post(endpoint, data=body, headers={"Content-Type": "application/json"},
                              timeout=min(3.0, max(0.2, left)))
            status = r.status_code
        except requests.RequestException as e:
            status = None
            print("call failed:", e.__class__.__name__, flush=True)
        print(mid, status, "redelivered" if method.redelivered else "", flush=True)
        if status == 201:
            db.execute("INSERT OR IGNORE INTO processed (message_id) VALUES (?)", (mid,))
            db.commit()
            ch.basic_ack(method.delivery_tag)
        elif status == 422:
            ch.basic_reject(method.delivery_tag, requeue=False)
        elif method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)
    return on_message


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()
    deadline = time.monotonic() + args.max_seconds

    db = sqlite3.connect(DB)
    db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY)")
    db.commit()

    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.basic_consume(queue="claim.in",
                     on_message_callback=make_handler(args.claim.rstrip("/") + "/v1/claims", db, deadline))
    ch.basic_qos(prefetch_count=args.prefetch)
    conn.call_later(max(0, deadline - time.monotonic()), ch.stop_consuming)
    ch.start_consuming()
    conn.close()
    db.close()


if __name__ == "__main__":
    main()
