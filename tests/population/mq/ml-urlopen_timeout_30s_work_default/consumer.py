"""Claim consumer: claim.in -> POST {--claim}/v1/claims, manual acks.

python3 consumer.py --claim http://127.0.0.1:9202 --max-seconds 30 [--prefetch 5]
"""
import argparse
import os
import sqlite3
import sys
import time
import urllib.error
import urllib.request

import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
HTTP_TIMEOUT = 30  # same as our HTTP client standard at work


class Ledger:
    """message_ids that got a 201. Survives restarts (SQLite file)."""

    def __init__(self, path):
        self.db = sqlite3.connect(path)
        self.db.execute("CREATE TABLE IF NOT EXISTS processed ("
                        "message_id TEXT PRIMARY KEY, status INTEGER, ts TEXT DEFAULT (datetime('now')))")
        self.db.commit()

    def seen(self, mid):
        return self.db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone() is not None

    def remember(self, mid, status):
        self.db.execute("INSERT OR IGNORE INTO processed (message_id, status) VALUES (?, ?)", (mid, status))
        self.db.commit()

    def close(self):
        self.db.close()


def post_claim(base_url, body):
    """Return the HTTP status code; None when the claim system could not be reached or timed out."""
    req = urllib.request.Request(base_url.rstrip("/") + "/v1/claims", data=body, method="POST",
                                 headers={"Content-Type": "application/json", "Accept": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=HTTP_TIMEOUT) as resp:
            resp.read()
            return resp.status
    except urllib.error.HTTPError as err:
        return err.code
    except Exception as err:  # URLError (refused), TimeoutError, RemoteDisconnected ...
        print(f"claim system unavailable: {err!r}", file=sys.stderr)
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()

    deadline = time.monotonic() + args.max_seconds
    ledger = Ledger(DB_PATH)
    connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    channel = connection.channel()
    channel.basic_qos(prefetch_count=args.prefetch)

    counts = {"ack": 0, "dup": 0, "dlq": 0, "requeue": 0}
    for method, props, body in channel.consume("claim.in", auto_ack=False, inactivity_timeout=0.5):
        if time.monotonic() >= deadline:
            break
        if method is None:
            continue
        tag, mid = method.delivery_tag, props.message_id
        if mid and ledger.seen(mid):
            channel.basic_ack(tag)
            counts["dup"] += 1
            continue
        status = post_claim(args.claim, body)
        if status == 201:
            if mid:
                ledger.remember(mid, status)
            channel.basic_ack(tag)
            counts["ack"] += 1
        elif status == 422 or method.redelivered:
            channel.basic_reject(tag, requeue=False)
            counts["dlq"] += 1
        else:
            channel.basic_nack(tag, requeue=True)
            counts["requeue"] += 1

    channel.cancel()
    connection.close()
    ledger.close()
    print(counts)


if __name__ == "__main__":
    main()
