"""Forward claims from claim.in to the claim system.

Manual acks only after a 201; 422 goes to the DLX at once; transient failures (503,
connection failure, timeout) get exactly one requeue; processed message_ids are kept in
SQLite so a redelivered/duplicated claim is acked without a second call.
"""
from __future__ import annotations

import argparse
import enum
import json
import logging
import os
import signal
import sqlite3
import sys
import time
from dataclasses import dataclass
from urllib.parse import urlparse

import requests
from requests.adapters import HTTPAdapter
from pika.exceptions import AMQPConnectionError, ChannelClosed, ConnectionClosed, StreamLostError

from amqp_common import amqp_url, connect, setup_logging

log = logging.getLogger("eai.mq.consumer")

DEFAULT_DB = "/root/eaimw/mq/processed.db"
QUEUE = "claim.in"


@dataclass(frozen=True)
class Config:
    claim_url: str
    max_seconds: float
    prefetch: int
    db_path: str
    http_timeout: float
    amqp_url: str

    @property
    def endpoint(self) -> str:
        return self.claim_url.rstrip("/") + "/v1/claims"


class Outcome(enum.Enum):
    ACK = "ack"            # processed (or already processed)
    DEAD = "dead"          # reject without requeue -> eai.dlx
    RETRY = "retry"        # nack with requeue (first transient failure)


class Deadline:
    def __init__(self, seconds: float) -> None:
        self._end = time.monotonic() + seconds

    def left(self) -> float:
        return self._end - time.monotonic()

    def passed(self) -> bool:
        return self.left() <= 0


class ProcessedStore:
    """message_ids that the claim system accepted (201)."""

    def __init__(self, path: str) -> None:
        self._db = sqlite3.connect(path, isolation_level=None)  # autocommit
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute(
            """CREATE TABLE IF NOT EXISTS processed_messages (
                   message_id     TEXT PRIMARY KEY,
                   claim_id       TEXT,
                   partner_status INTEGER NOT NULL,
                   recorded_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
               )"""
        )

    def seen(self, message_id: str) -> bool:
        cur = self._db.execute("SELECT 1 FROM processed_messages WHERE message_id = ?", (message_id,))
        return cur.fetchone() is not None

    def record(self, message_id: str, claim_id: str | None, status: int) -> None:
        self._db.execute(
            "INSERT OR IGNORE INTO processed_messages (message_id, claim_id, partner_status) VALUES (?, ?, ?)",
            (message_id, claim_id, status),
        )

    def close(self) -> None:
        self._db.close()


class ClaimForwarder:
    def __init__(self, cfg: Config, store: ProcessedStore, deadline: Deadline) -> None:
        self.cfg = cfg
        self.store = store
        self.deadline = deadline
        self.stopping = False
        self.http = requests.Session()
        # no automatic HTTP retries: redelivery is the retry mechanism
        self.http.mount("http://", HTTPAdapter(max_retries=0))
        self.http.mount("https://", HTTPAdapter(max_retries=0))

    def request_stop(self, signum: int, _frame) -> None:
        log.info("signal %s received, finishing the current message and stopping", signal.Signals(signum).name)
        self.stopping = True

    def handle(self, message_id: str | None, redelivered: bool, body: bytes) -> Outcome:
        if message_id and self.store.seen(message_id):
            log.info("%s already processed: ack without calling the claim system", message_id)
            return Outcome.ACK
        read_timeout = max(0.1, min(self.cfg.http_timeout, self.deadline.left()))
        try:
            resp = self.http.post(self.cfg.endpoint, data=body,
                                  headers={"Content-Type": "application/json"},
                                  timeout=(min(1.0, read_timeout), read_timeout))
        except requests.Timeout:
            return self._transient(message_id, redelivered, "timeout")
        except requests.ConnectionError as exc:
            return self._transient(message_id, redelivered, f"connection failure ({exc.__class__.__name__})")
        if resp.status_code == 201:
            if message_id:
                self.store.record(message_id, _claim_id(body), resp.status_code)
            log.info("%s accepted (201)", message_id)
            return Outcome.ACK
        if resp.status_code == 422:
            log.warning("%s rejected by the claim system (422): dead-lettering", message_id)
            return Outcome.DEAD
        return self._transient(message_id, redelivered, f"HTTP {resp.status_code}")

    @staticmethod
    def _transient(message_id: str | None, redelivered: bool, why: str) -> Outcome:
        if redelivered:
            log.warning("%s failed again after a redelivery (%s): dead-lettering", message_id, why)
            return Outcome.DEAD
        log.warning("%s transient failure (%s): requeue once", message_id, why)
        return Outcome.RETRY

    def consume(self) -> None:
        """One AMQP session; returns at the deadline or on a stop signal."""
        connection = connect(attempts=3, backoff=0.3, give_up_at=time.monotonic() + self.deadline.left())
        try:
            channel = connection.channel()
            channel.basic_qos(prefetch_count=self.cfg.prefetch)
            for method, props, body in channel.consume(QUEUE, auto_ack=False, inactivity_timeout=0.25):
                if self.stopping or self.deadline.passed():
                    break
                if method is None:
                    continue
                outcome = self.handle(props.message_id, method.redelivered, body)
                if outcome is Outcome.ACK:
                    channel.basic_ack(delivery_tag=method.delivery_tag)
                elif outcome is Outcome.DEAD:
                    channel.basic_reject(delivery_tag=method.delivery_tag, requeue=False)
                else:
                    channel.basic_nack(delivery_tag=method.delivery_tag, requeue=True)
            requeued = channel.cancel()
            if requeued:
                log.info("handed %d prefetched message(s) back to the broker", requeued)
        finally:
            if connection.is_open:
                connection.close()

    def run(self) -> int:
        while not (self.stopping or self.deadline.passed()):
            try:
                self.consume()
            except (StreamLostError, ConnectionClosed, AMQPConnectionError) as exc:
                if self.deadline.passed() or self.stopping:
                    break
                log.error("AMQP connection lost (%r); reconnecting", exc)
                time.sleep(min(1.0, max(0.0, self.deadline.left())))
            except ChannelClosed as exc:
                log.error("channel closed by the broker: %r", exc)
                return 1
        log.info("stopping: deadline reached or signal")
        return 0


def _claim_id(body: bytes) -> str | None:
    try:
        return str(json.loads(body).get("claimId"))
    except (ValueError, AttributeError):
        return None


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError("must be > 0")
    return value


def _prefetch(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError("must be between 1 and 65535")
    return value


def _http_url(text: str) -> str:
    parts = urlparse(text)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise argparse.ArgumentTypeError(f"not an http(s) URL: {text!r}")
    return text


def parse_args(argv: list[str] | None) -> tuple[Config, str]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--claim", required=True, type=_http_url, help="base URL of the claim system")
    parser.add_argument("--max-seconds", required=True, type=_positive_float)
    parser.add_argument("--prefetch", type=_prefetch, default=5)
    parser.add_argument("--http-timeout", type=_positive_float, default=2.5)
    parser.add_argument("--log-level", default="INFO")
    a = parser.parse_args(argv)
    cfg = Config(claim_url=a.claim, max_seconds=a.max_seconds, prefetch=a.prefetch,
                 db_path=os.environ.get("EAI_MQ_DB", DEFAULT_DB), http_timeout=a.http_timeout,
                 amqp_url=amqp_url())
    return cfg, a.log_level


def main(argv: list[str] | None = None) -> int:
    cfg, level = parse_args(argv)
    setup_logging(level)
    deadline = Deadline(cfg.max_seconds)
    store = ProcessedStore(cfg.db_path)
    forwarder = ClaimForwarder(cfg, store, deadline)
    signal.signal(signal.SIGTERM, forwarder.request_stop)
    signal.signal(signal.SIGINT, forwarder.request_stop)
    log.info("consuming %s -> %s for %.1fs (prefetch %d, db %s)", QUEUE, cfg.endpoint,
             cfg.max_seconds, cfg.prefetch, cfg.db_path)
    try:
        return forwarder.run()
    finally:
        store.close()


if __name__ == "__main__":
    sys.exit(main())
