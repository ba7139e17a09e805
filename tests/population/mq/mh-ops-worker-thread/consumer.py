#!/usr/bin/env python3
"""claim.in consumer with a worker thread.

The pika connection lives on the main thread and keeps pumping I/O (heartbeats stay
alive even if the claim system is slow); HTTP calls run one at a time on a worker
thread. The worker never touches pika directly: it schedules the settle (ack / nack /
reject) on the connection thread with add_callback_threadsafe. The SQLite row is
written by the worker *before* it schedules the ack.

Exit codes: 0 normal end at --max-seconds, 3 could not reach the broker, 4 lost the
broker connection while running.
"""
from __future__ import annotations

import argparse
import functools
import json
import queue
import signal
import sqlite3
import sys
import threading
import time
from dataclasses import dataclass

import pika
import requests
from pika.exceptions import AMQPConnectionError, AMQPError

from common import QUEUE_IN, Settings, log

CONNECT_TIMEOUT = 2.0
READ_TIMEOUT_CAP = 5.0
EX_OK, EX_NO_BROKER, EX_LOST_BROKER = 0, 3, 4


@dataclass
class Delivery:
    tag: int
    redelivered: bool
    message_id: str | None
    body: bytes


class Ledger:
    """Processed claims. Opened inside the worker thread (sqlite objects are per thread)."""

    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path)
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute(
            """CREATE TABLE IF NOT EXISTS processed_claims (
                   message_id   TEXT PRIMARY KEY,
                   claim_id     TEXT,
                   http_status  INTEGER NOT NULL,
                   processed_at REAL NOT NULL
               )"""
        )
        self.db.commit()

    def known(self, message_id: str) -> bool:
        cur = self.db.execute("SELECT 1 FROM processed_claims WHERE message_id = ?", (message_id,))
        return cur.fetchone() is not None

    def record(self, message_id: str, claim_id: str | None, status: int) -> None:
        self.db.execute(
            "INSERT OR IGNORE INTO processed_claims VALUES (?, ?, ?, ?)",
            (message_id, claim_id, status, time.time()),
        )
        self.db.commit()


class Worker(threading.Thread):
    def __init__(self, conn, ch, claims_url: str, db_path: str, deadline: float) -> None:
        super().__init__(name="claim-worker", daemon=True)
        self.conn, self.ch = conn, ch
        self.claims_url = claims_url
        self.db_path = db_path
        self.deadline = deadline
        self.inbox: queue.Queue[Delivery] = queue.Queue()
        self.stop = threading.Event()
        self.http = requests.Session()

    # -- settle on the connection thread ---------------------------------------------
    def _settle(self, tag: int, action: str) -> None:
        def do() -> None:
            if not self.ch.is_open:
                return  # the broker requeues it when the channel is gone
            if action == "ack":
                self.ch.basic_ack(delivery_tag=tag)
            elif action == "requeue":
                self.ch.basic_nack(delivery_tag=tag, requeue=True)
            else:  # "dead"
                self.ch.basic_reject(delivery_tag=tag, requeue=False)

        self.conn.add_callback_threadsafe(do)

    def _call(self, body: bytes) -> int | None:
        left = self.deadline - time.monotonic()
        try:
            resp = self.http.post(
                self.claims_url,
                data=body,
                headers={"Content-Type": "application/json"},
                timeout=(CONNECT_TIMEOUT, max(0.5, min(READ_TIMEOUT_CAP, left))),
            )
            return resp.status_code
        except requests.exceptions.RequestException as exc:
            log("claim.transport_error", error=type(exc).__name__)
            return None

    def run(self) -> None:
        ledger = Ledger(self.db_path)
        while not self.stop.is_set():
            try:
                d = self.inbox.get(timeout=0.2)
            except queue.Empty:
                continue
            if self.stop.is_set():
                break  # left unacked: back to the queue on close
            self.handle(ledger, d)

    def handle(self, ledger: Ledger, d: Delivery) -> None:
        try:
            claim = json.loads(d.body)
        except ValueError:
            claim = {}
        mid = d.message_id or (str(claim["guid"]) if claim.get("guid") else None)
        if mid and ledger.known(mid):
            log("claim.duplicate", message_id=mid)
            self._settle(d.tag, "ack")
            return
        status = self._call(d.body)
        if status == 201:
            if mid:
                ledger.record(mid, claim.get("claimId"), status)
            self._settle(d.tag, "ack")
            action = "ack"
        elif status == 422:
            self._settle(d.tag, "dead")  # business rejection, never requeued
            action = "dead"
        elif d.redelivered:
            self._settle(d.tag, "dead")  # second transient failure
            action = "dead"
        else:
            self._settle(d.tag, "requeue")  # first transient failure
            action = "requeue"
        log("claim.done", message_id=mid, status=status, redelivered=d.redelivered, action=action)


def _on_sigterm(signum, frame) -> None:
    raise KeyboardInterrupt  # same clean shutdown path as Ctrl-C


def run(args: argparse.Namespace) -> int:
    cfg = Settings()
    deadline = time.monotonic() + args.max_seconds
    signal.signal(signal.SIGTERM, _on_sigterm)

    # a couple of connection attempts, but never past the deadline
    conn = None
    while conn is None:
        try:
            conn = pika.BlockingConnection(pika.URLParameters(cfg.amqp_url))
        except AMQPConnectionError as exc:
            if time.monotonic() + 1 >= deadline:
                log("broker.unreachable", error=repr(exc))
                return EX_NO_BROKER
            log("broker.retry", error=repr(exc))
            time.sleep(1)

    ch = conn.channel()
    ch.basic_qos(prefetch_count=args.prefetch)
    worker = Worker(conn, ch, args.claim.rstrip("/") + "/v1/claims", cfg.db_path, deadline)

    def on_message(_ch, method, props, body) -> None:
        worker.inbox.put(Delivery(method.delivery_tag, method.redelivered, props.message_id, body))

    tag = ch.basic_consume(QUEUE_IN, on_message, auto_ack=False)
    worker.start()
    log("consumer.start", prefetch=args.prefetch, max_seconds=args.max_seconds)
    rc = EX_OK
    try:
        while time.monotonic() < deadline:
            conn.process_data_events(time_limit=min(0.2, max(0.0, deadline - time.monotonic())))
        worker.stop.set()
        ch.basic_cancel(tag)  # pika nacks+requeues deliveries not yet handed to on_message
        # let the worker finish the call in progress (bounded by its timeout) and flush its settle
        while worker.is_alive():
            conn.process_data_events(time_limit=0.1)
        conn.process_data_events(time_limit=0)
    except KeyboardInterrupt:
        log("consumer.interrupted")
        worker.stop.set()
    except AMQPError as exc:
        log("broker.lost", error=repr(exc))
        rc = EX_LOST_BROKER
    finally:
        if conn.is_open:
            conn.close()  # whatever is still unacked goes back to claim.in
    log("consumer.stop", rc=rc)
    return rc


def main() -> int:
    ap = argparse.ArgumentParser(description="claim.in -> claim system")
    ap.add_argument("--claim", required=True, help="claim system base URL")
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    return run(ap.parse_args())


if __name__ == "__main__":
    sys.exit(main())
