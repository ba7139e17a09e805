"""The SQLite record of message_ids the claim system accepted.

sqlite3 connections must stay in the thread that made them, so every worker thread gets
its own connection to the same file."""
import sqlite3
import threading
import time

from .config import settings

_local = threading.local()

SCHEMA = """
CREATE TABLE IF NOT EXISTS processed_messages (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id  TEXT NOT NULL UNIQUE,
    accepted_at INTEGER NOT NULL,
    worker      TEXT
)"""


def _db():
    db = getattr(_local, "db", None)
    if db is None:
        db = sqlite3.connect(settings.db_path, timeout=30)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(SCHEMA)
        db.commit()
        _local.db = db
    return db


def init():
    _db()


def already_processed(message_id):
    return _db().execute("SELECT 1 FROM processed_messages WHERE message_id = ?", (message_id,)).fetchone() is not None


def mark_processed(message_id):
    db = _db()
    with db:
        db.execute(
            "INSERT OR IGNORE INTO processed_messages (message_id, accepted_at, worker) VALUES (?, ?, ?)",
            (message_id, int(time.time() * 1000), threading.current_thread().name),
        )
