#!/usr/bin/env python3
"""File-queue consumer with idempotent processing.

Flow per file: inbox/ --rename--> processing/ --(validate, insert)--> done/ | error/
Idempotency is enforced by the UNIQUE constraint on processed.msg_id, not by application checks.
"""
from __future__ import annotations

import json
import logging
import os
import sqlite3
import sys
import tempfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Final, Optional

LAB_ROOT: Final[Path] = Path(os.environ.get("LAB_ROOT", "/root"))
QUEUE_ROOT: Final[Path] = LAB_ROOT / "q"
DB_FILE: Final[Path] = QUEUE_ROOT / "ledger.db"
REQUIRED_FIELDS: Final[tuple[str, ...]] = ("msg_id", "order_no", "seq", "amount")
REASON_PARSE: Final[str] = "parse"
REASON_MISSING: Final[str] = "missing-field"
DB_TIMEOUT_SECONDS: Final[float] = 30.0

LOG = logging.getLogger("consumer")


class InvalidMessageError(Exception):
    """Raised when a message can never be processed (poison message)."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason


@dataclass(frozen=True)
class Message:
    msg_id: Any
    order_no: Any
    seq: Any
    amount: Any

    @staticmethod
    def parse(raw: bytes) -> "Message":
        try:
            payload = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InvalidMessageError(REASON_PARSE, str(exc)) from exc
        if not isinstance(payload, dict):
            raise InvalidMessageError(REASON_PARSE, f"top level is {type(payload).__name__}, not an object")
        missing = [name for name in REQUIRED_FIELDS if payload.get(name) is None]
        if missing:
            raise InvalidMessageError(REASON_MISSING, ",".join(missing))
        return Message(*(payload[name] for name in REQUIRED_FIELDS))


class QueueDirectories:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.inbox = root / "inbox"
        self.processing = root / "processing"
        self.done = root / "done"
        self.error = root / "error"

    def ensure(self) -> None:
        for directory in (self.inbox, self.processing, self.done, self.error):
            directory.mkdir(parents=True, exist_ok=True)

    def claim(self, candidate: Path) -> Optional[Path]:
        """Atomically move a file into processing/. None if another consumer won the race."""
        target = self.processing / candidate.name
        try:
            candidate.rename(target)
        except FileNotFoundError:
            return None
        return target


class Ledger:
    DDL: Final[tuple[str, ...]] = (
        """CREATE TABLE IF NOT EXISTS processed (
               id              INTEGER PRIMARY KEY AUTOINCREMENT,
               msg_id          TEXT    NOT NULL UNIQUE,
               order_no        TEXT    NOT NULL,
               seq             INTEGER NOT NULL,
               amount          NUMERIC NOT NULL,
               processed_at    TEXT    NOT NULL,
               processed_epoch_ms INTEGER NOT NULL,
               source_file     TEXT    NOT NULL
           )""",
        """CREATE TABLE IF NOT EXISTS duplicate_message (
               msg_id      TEXT NOT NULL,
               source_file TEXT NOT NULL,
               seen_at     TEXT NOT NULL
           )""",
        """CREATE TABLE IF NOT EXISTS rejected_message (
               source_file TEXT NOT NULL,
               reason      TEXT NOT NULL,
               detail      TEXT,
               rejected_at TEXT NOT NULL
           )""",
    )

    def __init__(self, path: Path) -> None:
        self.connection = sqlite3.connect(str(path), timeout=DB_TIMEOUT_SECONDS)
        with self.connection:
            for statement in self.DDL:
                self.connection.execute(statement)

    def record(self, message: Message, source_file: str) -> bool:
        """Insert the message; False when msg_id was already processed (duplicate)."""
        now = datetime.now(timezone.utc)
        with self.connection:
            cursor = self.connection.execute(
                """INSERT INTO processed (msg_id, order_no, seq, amount, processed_at, processed_epoch_ms, source_file)
                   VALUES (?, ?, ?, ?, ?, ?, ?)
                   ON CONFLICT(msg_id) DO NOTHING""",
                (message.msg_id, message.order_no, message.seq, message.amount,
                 now.isoformat(timespec="milliseconds"), int(now.timestamp() * 1000), source_file),
            )
            inserted = cursor.rowcount == 1
            if not inserted:
                self.connection.execute(
                    "INSERT INTO duplicate_message (msg_id, source_file, seen_at) VALUES (?, ?, ?)",
                    (str(message.msg_id), source_file, now.isoformat()),
                )
        return inserted

    def reject(self, source_file: str, reason: str, detail: str) -> None:
        with self.connection:
            self.connection.execute(
                "INSERT INTO rejected_message (source_file, reason, detail, rejected_at) VALUES (?, ?, ?, ?)",
                (source_file, reason, detail, datetime.now(timezone.utc).isoformat()),
            )

    def duplicate_ids(self) -> list[str]:
        return [row[0] for row in self.connection.execute(
            "SELECT DISTINCT msg_id FROM duplicate_message ORDER BY msg_id")]

    def rejected(self) -> list[tuple[str, str]]:
        return list(self.connection.execute(
            """SELECT source_file, reason FROM rejected_message
               GROUP BY source_file HAVING rejected_at = MAX(rejected_at) ORDER BY source_file"""))

    def close(self) -> None:
        self.connection.close()


class ReportWriter:
    """Writes dup.txt and error.csv atomically (temp file + os.replace)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def _write(self, name: str, lines: list[str]) -> None:
        fd, tmp = tempfile.mkstemp(dir=self.root, prefix=f".{name}.")
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.writelines(line + "\n" for line in lines)
        os.chmod(tmp, 0o644)
        os.replace(tmp, self.root / name)

    def write(self, ledger: Ledger) -> None:
        self._write("dup.txt", ledger.duplicate_ids())
        self._write("error.csv", ["file,reason"] + [f"{f},{r}" for f, r in ledger.rejected()])


class Consumer:
    def __init__(self, queue: QueueDirectories, ledger: Ledger) -> None:
        self.queue = queue
        self.ledger = ledger
        self.stats = {"done": 0, "duplicate": 0, "error": 0, "skipped": 0}

    def run(self) -> None:
        for candidate in sorted(self.queue.inbox.iterdir()):
            if not candidate.is_file():
                continue
            claimed = self.queue.claim(candidate)
            if claimed is None:
                self.stats["skipped"] += 1
                LOG.debug("%s taken by another consumer", candidate.name)
                continue
            self.handle(claimed)
        LOG.info("finished: %s", self.stats)

    def handle(self, claimed: Path) -> None:
        try:
            message = Message.parse(claimed.read_bytes())
        except InvalidMessageError as exc:
            self.ledger.reject(claimed.name, exc.reason, str(exc))
            claimed.rename(self.queue.error / claimed.name)
            self.stats["error"] += 1
            LOG.warning("%s -> error/ (%s)", claimed.name, exc)
            return
        if self.ledger.record(message, claimed.name):
            LOG.info("%s -> done/ (msg_id=%s)", claimed.name, message.msg_id)
        else:
            self.stats["duplicate"] += 1
            LOG.info("%s -> done/ (duplicate msg_id=%s ignored)", claimed.name, message.msg_id)
        claimed.rename(self.queue.done / claimed.name)
        self.stats["done"] += 1


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)-7s [%(process)d] %(message)s")
    queue = QueueDirectories(QUEUE_ROOT)
    queue.ensure()
    ledger = Ledger(DB_FILE)
    try:
        Consumer(queue, ledger).run()
        ReportWriter(QUEUE_ROOT).write(ledger)
    finally:
        ledger.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
