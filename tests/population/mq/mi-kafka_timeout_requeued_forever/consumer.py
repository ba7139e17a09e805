#!/usr/bin/env python3
"""Claim consumer, written the way I would write a Kafka consumer:

  poll loop (ch.consume generator)      ~ consumer.poll(0.5)
  basic_ack after the sink accepted     ~ commit the offset only after processing
  idempotent sink via processed.db       ~ "exactly-once-ish" with an idempotence table
  non-retriable error (422)             -> dead letter topic right away
  retriable error (503, refused)        -> one retry (requeue), then dead letter topic
  timeout                               -> outcome UNKNOWN (the claim system may have stored it):
                                           never dead-letter an unknown outcome, redeliver it;
                                           the idempotence table makes a retry harmless.
"""
import argparse
import os
import sqlite3
import sys
import time

import pika
import requests

BOOTSTRAP = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
STATE_DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
REQUEST_TIMEOUT_S = 3.0

ACK, DEAD, RETRY = "ack", "dead", "retry"


class RetriableError(Exception):
    pass


class UnknownOutcome(Exception):
    pass


class NonRetriableError(Exception):
    pass


def sink(url: str, value: bytes, timeout: float) -> None:
    try:
        r = requests.post(url, data=value, headers={"Content-Type": "application/json"}, timeout=timeout)
    except requests.Timeout as e:
        raise UnknownOutcome(type(e).__name__) from e
    except requests.RequestException as e:
        raise RetriableError(type(e).__name__) from e
    if r.status_code == 201:
        return
    if r.status_code == 422:
        raise NonRetriableError("422 documents missing")
    raise RetriableError(f"HTTP {r.status_code}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)        # ~ max.poll.records
    opts = ap.parse_args()
    deadline = time.monotonic() + opts.max_seconds
    url = opts.claim.rstrip("/") + "/v1/claims"

    state = sqlite3.connect(STATE_DB)
    state.execute("CREATE TABLE IF NOT EXISTS processed_keys (message_id TEXT PRIMARY KEY, committed_at REAL)")
    state.commit()

    conn = pika.BlockingConnection(pika.URLParameters(BOOTSTRAP))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=opts.prefetch)
    stats = {ACK: 0, DEAD: 0, RETRY: 0}
    for method, props, value in ch.consume("claim.in", inactivity_timeout=0.5):
        if time.monotonic() >= deadline:
            break
        if method is None:
            continue
        key = props.message_id
        if key and state.execute("SELECT 1 FROM processed_keys WHERE message_id=?", (key,)).fetchone():
            ch.basic_ack(method.delivery_tag)        # already committed: skip
            stats[ACK] += 1
            continue
        try:
            sink(url, value, max(0.2, min(REQUEST_TIMEOUT_S, deadline - time.monotonic())))
            if key:
                state.execute("INSERT OR IGNORE INTO processed_keys VALUES (?, ?)", (key, time.time()))
                state.commit()
            ch.basic_ack(method.delivery_tag)
            outcome = ACK
        except NonRetriableError:
            ch.basic_reject(method.delivery_tag, requeue=False)
            outcome = DEAD
        except UnknownOutcome:
            ch.basic_nack(method.delivery_tag, requeue=True)
            outcome = RETRY
        except RetriableError:
            if method.redelivered:
                ch.basic_reject(method.delivery_tag, requeue=False)
                outcome = DEAD
            else:
                ch.basic_nack(method.delivery_tag, requeue=True)
                outcome = RETRY
        stats[outcome] += 1
        print(f"key={key} redelivered={method.redelivered} -> {outcome}")
    ch.cancel()
    conn.close()
    state.close()
    print("consumer closed", stats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
