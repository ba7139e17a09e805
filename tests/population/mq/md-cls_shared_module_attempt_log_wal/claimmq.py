"""claimmq -- what topology.py, publish.py and consumer.py share.

Names of the AMQP objects, the connection, the claim-system client and the
SQLite ledger live here so the three scripts stay short.
"""
import enum
import http.client
import os
import socket
import sqlite3
import time
import urllib.parse

import pika

DEFAULT_AMQP_URL = "amqp://guest:guest@127.0.0.1:5672/%2F"
DEFAULT_DB = "/root/eaimw/mq/processed.db"

EXCHANGE = "eai.claim"
DLX = "eai.dlx"
QUEUE = "claim.in"
DEAD_QUEUE = "claim.dead"
ROUTING_KEY = "claim"
DEAD_KEY = "claim.dead"


def amqp_url():
    return os.environ.get("EAI_AMQP_URL", DEFAULT_AMQP_URL)


def connect():
    return pika.BlockingConnection(pika.URLParameters(amqp_url()))


class Topology:
    """Everything is declared with fixed properties, so re-declaring is a no-op."""

    exchanges = [(EXCHANGE, "direct"), (DLX, "direct")]
    queues = [
        (QUEUE, {"x-dead-letter-exchange": DLX, "x-dead-letter-routing-key": DEAD_KEY}),
        # the DLQ is a plain classic queue; say so explicitly
        (DEAD_QUEUE, {"x-queue-type": "classic"}),
    ]
    bindings = [(QUEUE, EXCHANGE, ROUTING_KEY), (DEAD_QUEUE, DLX, DEAD_KEY)]

    def declare(self, ch):
        for name, kind in self.exchanges:
            ch.exchange_declare(exchange=name, exchange_type=kind, durable=True)
        for name, arguments in self.queues:
            ch.queue_declare(queue=name, durable=True, arguments=arguments)
        for queue, exchange, key in self.bindings:
            ch.queue_bind(queue=queue, exchange=exchange, routing_key=key)


class Outcome(enum.Enum):
    ACCEPTED = "accepted"      # 201
    REJECTED = "rejected"      # 422: business rejection, never retry
    TRANSIENT = "transient"    # 503, any other status, refused, timeout


class ClaimSystem:
    """POST /v1/claims with http.client, one short-lived connection per call."""

    def __init__(self, base_url, timeout=3.0):
        u = urllib.parse.urlsplit(base_url)
        self.https = u.scheme == "https"
        self.host = u.hostname
        self.port = u.port or (443 if self.https else 80)
        self.path = u.path.rstrip("/") + "/v1/claims"
        self.timeout = timeout

    def submit(self, body):
        cls = http.client.HTTPSConnection if self.https else http.client.HTTPConnection
        conn = cls(self.host, self.port, timeout=self.timeout)
        try:
            conn.request("POST", self.path, body=body,
                         headers={"Content-Type": "application/json"})
            resp = conn.getresponse()
            resp.read()
            status = resp.status
        except (OSError, socket.timeout, http.client.HTTPException) as e:
            return Outcome.TRANSIENT, f"{type(e).__name__}: {e}"
        finally:
            conn.close()
        if status == 201:
            return Outcome.ACCEPTED, "201"
        if status == 422:
            return Outcome.REJECTED, "422"
        return Outcome.TRANSIENT, str(status)


class Ledger:
    """SQLite at $EAI_MQ_DB.

    processed -- message_ids the claim system accepted; this is what
                 de-duplication looks at.
    attempt   -- one row per call we made, whatever came back (for me, when I
                 want to see why something ended in claim.dead).
    """

    def __init__(self, path=None):
        self.path = path or os.environ.get("EAI_MQ_DB", DEFAULT_DB)
        folder = os.path.dirname(self.path)
        if folder:
            os.makedirs(folder, exist_ok=True)
        self.db = sqlite3.connect(self.path)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        with self.db:
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS processed ("
                " message_id TEXT PRIMARY KEY, accepted_at REAL NOT NULL)")
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS attempt ("
                " id INTEGER PRIMARY KEY AUTOINCREMENT, message_id TEXT,"
                " at REAL NOT NULL, redelivered INTEGER, outcome TEXT, detail TEXT)")

    def is_processed(self, message_id):
        cur = self.db.execute("SELECT 1 FROM processed WHERE message_id = ?", (message_id,))
        return cur.fetchone() is not None

    def log_attempt(self, message_id, redelivered, outcome, detail):
        """one transaction: the attempt row and, for a 201, the processed row"""
        now = time.time()
        with self.db:
            self.db.execute(
                "INSERT INTO attempt (message_id, at, redelivered, outcome, detail)"
                " VALUES (?, ?, ?, ?, ?)",
                (message_id, now, int(bool(redelivered)), outcome.value, detail))
            if outcome is Outcome.ACCEPTED and message_id:
                self.db.execute(
                    "INSERT OR IGNORE INTO processed (message_id, accepted_at) VALUES (?, ?)",
                    (message_id, now))

    def close(self):
        self.db.close()
