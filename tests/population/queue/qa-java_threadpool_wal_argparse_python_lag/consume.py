#!/usr/bin/env python3
"""Directory-queue consumer (inbox -> processing -> done | error) with a SQLite idempotency ledger."""
from __future__ import annotations

import argparse
import json
import logging
import os
import sqlite3
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from enum import Enum
from pathlib import Path
from typing import Optional

REQUIRED_FIELDS: tuple[str, ...] = ("msg_id", "order_no", "seq", "amount")
DEFAULT_WORKERS: int = 4
BUSY_TIMEOUT_MS: int = 30_000

logger = logging.getLogger("queue.consumer")


class Outcome(Enum):
    STORED = "stored"
    DUPLICATE = "duplicate"
    PARSE = "parse"
    MISSING_FIELD = "missing-field"
    LOST_RACE = "lost-race"


class LedgerRepository:
    """One connection per thread; sqlite3 connections must not be shared across threads."""

    SCHEMA = """
        CREATE TABLE IF NOT EXISTS processed (
            msg_id        TEXT PRIMARY KEY,
            order_no      TEXT    NOT NULL,
            seq           INTEGER NOT NULL,
            amount        NUMERIC NOT NULL,
            processed_at  TEXT    NOT NULL,
            worker        TEXT
        );
        CREATE TABLE IF NOT EXISTS rejected (
            file          TEXT NOT NULL,
            reason        TEXT NOT NULL CHECK (reason IN ('parse', 'missing-field')),
            rejected_at   TEXT NOT NULL
        );
    """

    def __init__(self, db_path: Path) -> None:
        self._db_path = db_path
        self._local = threading.local()
        conn = self._connection()
        conn.execute("PRAGMA journal_mode=WAL")
        conn.executescript(self.SCHEMA)

    def _connection(self) -> sqlite3.Connection:
        conn: Optional[sqlite3.Connection] = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self._db_path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
            conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            self._local.conn = conn
        return conn

    def store(self, message: dict, worker: str) -> bool:
        conn = self._connection()
        conn.execute("BEGIN IMMEDIATE")
        try:
            cursor = conn.execute(
                "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at, worker) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (message["msg_id"], message["order_no"], message["seq"], message["amount"],
                 datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ"), worker),
            )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return cursor.rowcount == 1

    def reject(self, file_name: str, reason: str) -> None:
        self._connection().execute(
            "INSERT INTO rejected (file, reason, rejected_at) VALUES (?, ?, ?)",
            (file_name, reason, datetime.now(timezone.utc).isoformat()),
        )


class DirectoryQueue:
    def __init__(self, root: Path) -> None:
        self.inbox = root / "inbox"
        self.processing = root / "processing"
        self.done = root / "done"
        self.error = root / "error"
        for directory in (self.inbox, self.processing, self.done, self.error):
            directory.mkdir(parents=True, exist_ok=True)

    def pending(self) -> list[Path]:
        entries: list[tuple[float, str, Path]] = []
        with os.scandir(self.inbox) as iterator:
            for entry in iterator:
                try:
                    if entry.is_file(follow_symlinks=False):
                        entries.append((entry.stat().st_mtime, entry.name, Path(entry.path)))
                except FileNotFoundError:
                    continue  # taken by another consumer meanwhile
        return [path for _, _, path in sorted(entries)]


class Consumer:
    def __init__(self, queue: DirectoryQueue, ledger: LedgerRepository) -> None:
        self._queue = queue
        self._ledger = ledger

    def process(self, source: Path) -> tuple[str, Outcome, Optional[str]]:
        worker = f"{os.getpid()}/{threading.current_thread().name}"
        claimed = self._queue.processing / source.name
        try:
            os.rename(source, claimed)
        except FileNotFoundError:
            return source.name, Outcome.LOST_RACE, None

        outcome, msg_id = self._classify_and_store(claimed, worker)
        target_dir = self._queue.error if outcome in (Outcome.PARSE, Outcome.MISSING_FIELD) else self._queue.done
        if target_dir is self._queue.error:
            self._ledger.reject(claimed.name, outcome.value)
        os.rename(claimed, target_dir / claimed.name)
        return claimed.name, outcome, msg_id

    def _classify_and_store(self, claimed: Path, worker: str) -> tuple[Outcome, Optional[str]]:
        try:
            message = json.loads(claimed.read_bytes())
        except ValueError:
            return Outcome.PARSE, None
        if not isinstance(message, dict):
            return Outcome.PARSE, None
        if any(message.get(field) is None for field in REQUIRED_FIELDS):
            return Outcome.MISSING_FIELD, None
        stored = self._ledger.store(message, worker)
        return (Outcome.STORED if stored else Outcome.DUPLICATE), str(message["msg_id"])


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--root", type=Path, default=Path(os.environ.get("LAB_ROOT", "/root")) / "q",
                        help="queue root holding inbox/processing/done/error (default: $LAB_ROOT/q)")
    parser.add_argument("--workers", type=int, default=DEFAULT_WORKERS)
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    root: Path = args.root
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr),
                                       logging.FileHandler(root / "consume.log", encoding="utf-8")]
    logging.basicConfig(level=logging.INFO, handlers=handlers,
                        format="%(asctime)s %(levelname)s %(threadName)s %(message)s")
    queue = DirectoryQueue(root)
    ledger = LedgerRepository(root / "ledger.db")
    consumer = Consumer(queue, ledger)
    counts: dict[Outcome, int] = {outcome: 0 for outcome in Outcome}
    with ThreadPoolExecutor(max_workers=max(1, args.workers), thread_name_prefix="worker") as pool:
        for name, outcome, msg_id in pool.map(consumer.process, queue.pending()):
            counts[outcome] += 1
            if outcome is Outcome.DUPLICATE:
                logger.info("DUPLICATE msg_id=%s file=%s", msg_id, name)
            elif outcome is not Outcome.LOST_RACE:
                logger.info("%s file=%s", outcome.value.upper(), name)
    logger.info("summary %s", {outcome.value: count for outcome, count in counts.items()})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
