"""mqcommon.py - what topology.py, publish.py and consumer.py share.

Kept next to the three scripts in /root/eaimw/mq (python puts the script's own
folder on sys.path, so `import mqcommon` works from any working directory).
"""
import os
import sqlite3

import pika

DEFAULT_URL = "amqp://guest:guest@127.0.0.1:5672/%2F"
DEFAULT_DB = "/root/eaimw/mq/processed.db"

EXCHANGE = "eai.claim"
DLX = "eai.dlx"
QUEUE = "claim.in"
DEAD_QUEUE = "claim.dead"
ROUTING_KEY = "claim"
DEAD_KEY = "claim.dead"
QUEUE_ARGS = {"x-dead-letter-exchange": DLX, "x-dead-letter-routing-key": DEAD_KEY}


def amqp_url():
    return os.environ.get("EAI_AMQP_URL", DEFAULT_URL)


def connect():
    return pika.BlockingConnection(pika.URLParameters(amqp_url()))


def db_path():
    return os.environ.get("EAI_MQ_DB", DEFAULT_DB)


class Journal:
    """message_ids already delivered to the claim system, in SQLite (WAL mode)."""

    def __init__(self, path=None):
        path = path or db_path()
        parent = os.path.dirname(os.path.abspath(path))
        os.makedirs(parent, exist_ok=True)
        self.db = sqlite3.connect(path, timeout=20, isolation_level=None)  # autocommit
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS journal ("
            "  message_id TEXT PRIMARY KEY,"
            "  accepted_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f','now'))"
            ")"
        )

    def __contains__(self, message_id):
        cur = self.db.execute("SELECT EXISTS (SELECT 1 FROM journal WHERE message_id = ?)", (message_id,))
        return bool(cur.fetchone()[0])

    def add(self, message_id):
        # autocommit: the row is durable when execute returns
        self.db.execute("INSERT OR IGNORE INTO journal (message_id) VALUES (?)", (message_id,))

    def close(self):
        self.db.close()
