"""mqkit: the small pieces the three lab scripts share, each one a context manager."""
from __future__ import annotations

import os
import sqlite3
import time
import urllib.error
import urllib.request
from dataclasses import dataclass

import pika

DEFAULT_URL = "amqp://guest:guest@127.0.0.1:5672/%2F"
DEFAULT_DB = "/root/eaimw/mq/processed.db"


class Broker:
    """`with Broker() as ch:` -> an open channel; the connection is closed on the way out.

    Closing the connection hands every unacked delivery back to the broker."""

    def __init__(self, url: str | None = None):
        self.url = url or os.environ.get("EAI_AMQP_URL", DEFAULT_URL)
        self.connection: pika.BlockingConnection | None = None

    def __enter__(self):
        self.connection = pika.BlockingConnection(pika.URLParameters(self.url))
        return self.connection.channel()

    def __exit__(self, *exc):
        if self.connection is not None and self.connection.is_open:
            self.connection.close()
        return False


class Ledger:
    """The processed message_ids, in SQLite at $EAI_MQ_DB."""

    def __init__(self, path: str | None = None):
        self.path = path or os.environ.get("EAI_MQ_DB", DEFAULT_DB)
        self.db: sqlite3.Connection | None = None

    def __enter__(self):
        self.db = sqlite3.connect(self.path)
        with self.db:
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS ledger (message_id TEXT PRIMARY KEY, at REAL NOT NULL)"
            )
        return self

    def __exit__(self, *exc):
        if self.db is not None:
            self.db.close()
        return False

    def __contains__(self, message_id) -> bool:
        if not message_id:
            return False
        row = self.db.execute("SELECT 1 FROM ledger WHERE message_id = ?", (message_id,)).fetchone()
        return row is not None

    def add(self, message_id) -> None:
        if not message_id:
            return
        with self.db:  # commits on leaving the block
            self.db.execute("INSERT OR IGNORE INTO ledger VALUES (?, ?)", (message_id, time.time()))


@dataclass
class Outcome:
    status: int | None  # None: no HTTP answer at all (refused, reset, timed out)

    @property
    def accepted(self) -> bool:
        return self.status == 201

    @property
    def rejected(self) -> bool:
        return self.status == 422


class ClaimClient:
    def __init__(self, base: str):
        self.endpoint = base.rstrip("/") + "/v1/claims"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def submit(self, body: bytes, timeout: float) -> Outcome:
        request = urllib.request.Request(
            self.endpoint, data=body, method="POST",
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return Outcome(response.status)
        except urllib.error.HTTPError as err:        # 4xx / 5xx answers
            return Outcome(err.code)
        except (urllib.error.URLError, OSError, ValueError):  # refused / timeout / garbage
            return Outcome(None)
        except Exception:  # http.client.RemoteDisconnected and friends
            return Outcome(None)


class Budget:
    """A monotonic deadline, usable as `with Budget(s) as b:`."""

    def __init__(self, seconds: float):
        self.seconds = seconds

    def __enter__(self):
        self.deadline = time.monotonic() + self.seconds
        return self

    def __exit__(self, *exc):
        return False

    @property
    def left(self) -> float:
        return self.deadline - time.monotonic()

    @property
    def spent(self) -> bool:
        return self.left <= 0
