#!/usr/bin/env python3
"""Claim consumer written as a small state table.

outcome x redelivered -> action
    ok        *      record, ack
    business  *      reject (no requeue) -> DLX
    transient False  nack (requeue)       -> comes back with redelivered=True
    transient True   reject (no requeue)  -> DLX
The record is a key/value table in SQLite: key = message_id, value = JSON about the 201.
"""
import argparse
import json
import os
import sqlite3
import time

import pika
import requests

OK, BUSINESS, TRANSIENT = "ok", "business", "transient"
ACTIONS = {
    (OK, False): "ack", (OK, True): "ack",
    (BUSINESS, False): "dead", (BUSINESS, True): "dead",
    (TRANSIENT, False): "requeue", (TRANSIENT, True): "dead",
}


class Memory:
    def __init__(self, path):
        self.con = sqlite3.connect(path)
        self.con.execute("CREATE TABLE IF NOT EXISTS seen (k TEXT PRIMARY KEY, v TEXT NOT NULL)")
        self.con.commit()

    def __contains__(self, key):
        return self.con.execute("SELECT 1 FROM seen WHERE k = ? LIMIT 1", (key,)).fetchone() is not None

    def put(self, key, value):
        self.con.execute("INSERT OR REPLACE INTO seen (k, v) VALUES (?, ?)", (key, json.dumps(value)))
        self.con.commit()


class ClaimConsumer:
    def __init__(self, claim_url, prefetch, max_seconds):
        self.endpoint = claim_url.rstrip("/") + "/v1/claims"
        self.prefetch = prefetch
        self.max_seconds = max_seconds
        self.memory = Memory(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
        self.http = requests.Session()

    def classify(self, body):
        try:
            r = self.http.post(self.endpoint, data=body, timeout=(2, 4),
                               headers={"Content-Type": "application/json"})
        except (requests.exceptions.ConnectionError, requests.exceptions.Timeout):
            return TRANSIENT, None
        if r.status_code == 201:
            return OK, r.status_code
        if r.status_code == 422:
            return BUSINESS, r.status_code
        return TRANSIENT, r.status_code  # 503 and anything unexpected

    def process(self, ch, method, props, body):
        key = props.message_id
        if key in self.memory:
            ch.basic_ack(method.delivery_tag)
            return "skip"
        outcome, code = self.classify(body)
        action = ACTIONS[(outcome, bool(method.redelivered))]
        if action == "ack":
            self.memory.put(key, {"status": code, "at": time.time()})
            ch.basic_ack(method.delivery_tag)
        elif action == "requeue":
            ch.basic_nack(method.delivery_tag, requeue=True)
        else:
            ch.basic_reject(method.delivery_tag, requeue=False)
        return action

    def run(self):
        url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
        conn = pika.BlockingConnection(pika.URLParameters(url))
        ch = conn.channel()
        ch.basic_qos(prefetch_count=self.prefetch)
        deadline = time.monotonic() + self.max_seconds
        try:
            for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
                if time.monotonic() >= deadline:
                    break
                if method is None:
                    continue
                print(props.message_id, self.process(ch, method, props, body), flush=True)
        finally:
            conn.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    a = ap.parse_args()
    ClaimConsumer(a.claim, a.prefetch, a.max_seconds).run()
