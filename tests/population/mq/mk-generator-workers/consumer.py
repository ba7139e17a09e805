#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]

Main thread: pika consume() generator (the only thread that talks to the channel).
Worker threads (N = prefetch): take deliveries from a work queue, de-duplicate, POST, decide,
and hand the ack/nack/reject back through connection.add_callback_threadsafe().
"""
import getopt
import json
import logging
import os
import queue
import sqlite3
import sys
import threading
import time

import pika
import requests

log = logging.getLogger("consumer")


class Settings:
    def __init__(self):
        self.amqp_url = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
        self.db_path = os.getenv("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
        self.connect_timeout = float(os.getenv("CLAIM_CONNECT_TIMEOUT", "2"))
        self.read_timeout = float(os.getenv("CLAIM_READ_TIMEOUT", "2"))
        self.claim_url = None
        self.max_seconds = None
        self.prefetch = int(os.getenv("EAI_PREFETCH", "5"))

    def parse(self, argv):
        opts, rest = getopt.getopt(argv, "h", ["claim=", "max-seconds=", "prefetch=", "help"])
        if rest:
            raise getopt.GetoptError("unexpected arguments: %s" % rest)
        for name, value in opts:
            if name == "--claim":
                self.claim_url = value
            elif name == "--max-seconds":
                self.max_seconds = float(value)
            elif name == "--prefetch":
                self.prefetch = int(value)
            else:
                raise getopt.GetoptError(__doc__)
        if not self.claim_url or self.max_seconds is None:
            raise getopt.GetoptError("--claim and --max-seconds are required")
        if self.prefetch < 1:
            raise getopt.GetoptError("--prefetch must be at least 1")
        return self


class ProcessedRepository:
    """SQLite repository of accepted claims. One sqlite connection per thread."""

    SCHEMA = [
        """CREATE TABLE IF NOT EXISTS processed_message (
               message_id   TEXT PRIMARY KEY,
               claim_id     TEXT,
               http_status  INTEGER NOT NULL,
               attempts     INTEGER NOT NULL DEFAULT 1,
               processed_at REAL NOT NULL
           )""",
        "CREATE INDEX IF NOT EXISTS ix_processed_at ON processed_message(processed_at)",
        """CREATE VIEW IF NOT EXISTS v_processed_today AS
               SELECT message_id, claim_id, datetime(processed_at, 'unixepoch') AS at
               FROM processed_message WHERE processed_at > strftime('%s','now','-1 day')""",
    ]

    def __init__(self, path):
        self.path = path
        self.local = threading.local()
        parent = os.path.dirname(os.path.abspath(path))
        os.makedirs(parent, exist_ok=True)
        conn = self._conn()
        conn.execute("PRAGMA journal_mode=WAL")
        for ddl in self.SCHEMA:
            conn.execute(ddl)
        conn.commit()

    def _conn(self):
        conn = getattr(self.local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=15)
            self.local.conn = conn
        return conn

    def exists(self, message_id):
        cur = self._conn().execute("SELECT 1 FROM processed_message WHERE message_id = ?", (message_id,))
        return cur.fetchone() is not None

    def save(self, message_id, claim_id, http_status, attempts):
        conn = self._conn()
        with conn:  # commits
            conn.execute(
                "INSERT INTO processed_message (message_id, claim_id, http_status, attempts, processed_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT(message_id) DO NOTHING",
                (message_id, claim_id, http_status, attempts, time.time()),
            )


class Delivery:
    def __init__(self, method, props, body):
        self.tag = method.delivery_tag
        self.redelivered = bool(method.redelivered)
        self.message_id = props.message_id
        self.body = body

    def claim_id(self):
        try:
            return json.loads(self.body).get("claimId")
        except (ValueError, AttributeError):
            return None


class ClaimWorker(threading.Thread):
    """Takes deliveries from the work queue until it gets None."""

    TRANSIENT = (503,)

    def __init__(self, name, service):
        super().__init__(name=name, daemon=True)
        self.service = service
        self.http = requests.Session()

    def run(self):
        while True:
            delivery = self.service.work.get()
            if delivery is None:
                return
            try:
                action = self.handle(delivery)
            except Exception:
                log.exception("worker error on %s", delivery.message_id)
                action = "reject" if delivery.redelivered else "requeue"
            self.service.settle_later(delivery, action)

    def handle(self, d):
        repo = self.service.repo
        if d.message_id and repo.exists(d.message_id):
            log.info("%s: duplicate, already accepted -> ack only", d.message_id)
            return "ack"
        if self.service.deadline_passed():
            return "leave"
        try:
            r = self.http.post(
                self.service.claims_endpoint,
                data=d.body,
                headers={"Content-Type": "application/json"},
                timeout=(self.service.settings.connect_timeout, self.service.settings.read_timeout),
            )
            status = r.status_code
        except requests.exceptions.RequestException as e:
            log.warning("%s: claim system unreachable (%s)", d.message_id, type(e).__name__)
            status = None
        if status == 201:
            if d.message_id:
                repo.save(d.message_id, d.claim_id(), status, 2 if d.redelivered else 1)
            return "ack"
        if status == 422:
            log.info("%s: 422 documents missing -> DLQ", d.message_id)
            return "reject"
        # 503, refused, timeout, or an unexpected status: one more try, then the DLQ
        if d.redelivered:
            log.info("%s: failed again after redelivery (%s) -> DLQ", d.message_id, status)
            return "reject"
        log.info("%s: transient failure (%s) -> requeue once", d.message_id, status)
        return "requeue"


class ClaimConsumerService:
    def __init__(self, settings):
        self.settings = settings
        self.claims_endpoint = settings.claim_url.rstrip("/") + "/v1/claims"
        self.repo = ProcessedRepository(settings.db_path)
        self.work = queue.Queue()
        self.deadline = time.monotonic() + settings.max_seconds
        self.connection = None
        self.channel = None

    def deadline_passed(self):
        return time.monotonic() >= self.deadline

    def settle_later(self, delivery, action):
        if action == "leave":
            return

        def settle():
            if not self.channel or not self.channel.is_open:
                return
            if action == "ack":
                self.channel.basic_ack(delivery.tag)
            elif action == "reject":
                self.channel.basic_reject(delivery.tag, requeue=False)
            else:
                self.channel.basic_nack(delivery.tag, requeue=True)

        try:
            self.connection.add_callback_threadsafe(settle)
        except Exception as e:
            log.warning("connection gone, %s stays with the broker: %s", delivery.message_id, e)

    def run(self):
        self.connection = pika.BlockingConnection(pika.URLParameters(self.settings.amqp_url))
        self.channel = self.connection.channel()
        self.channel.basic_qos(prefetch_count=self.settings.prefetch)
        workers = [ClaimWorker("worker-%d" % i, self) for i in range(self.settings.prefetch)]
        for w in workers:
            w.start()
        log.info("consuming claim.in, prefetch=%d, for %.1fs", self.settings.prefetch, self.settings.max_seconds)
        try:
            for method, props, body in self.channel.consume("claim.in", auto_ack=False, inactivity_timeout=0.5):
                if method is not None:
                    self.work.put(Delivery(method, props, body))
                if self.deadline_passed():
                    break
        finally:
            self.stop(workers)

    def stop(self, workers):
        for _ in workers:
            self.work.put(None)
        # give running calls one more second, then leave: workers are daemon threads, and what
        # they hold unacked goes back to the queue when the connection closes
        limit = time.monotonic() + 1.0
        for w in workers:
            w.join(max(0.0, limit - time.monotonic()))
        try:
            if self.channel.is_open:
                self.connection.process_data_events(time_limit=0)  # run pending settle() callbacks
                self.channel.cancel()
            self.connection.close()
        except pika.exceptions.AMQPError as e:
            log.warning("close: %r", e)
        log.info("stopped")


def main(argv):
    logging.basicConfig(level=os.getenv("LOG_LEVEL", "INFO"), format="%(asctime)s %(levelname)-5s [%(threadName)s] %(name)s - %(message)s")
    logging.getLogger("pika").setLevel(logging.ERROR)
    try:
        settings = Settings().parse(argv)
    except (getopt.GetoptError, ValueError) as e:
        print("consumer.py: %s" % e, file=sys.stderr)
        return 2
    ClaimConsumerService(settings).run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
