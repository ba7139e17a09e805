#!/usr/bin/env python3
"""Directory queue consumer with SQLite-backed idempotency.

    inbox/ --claim--> processing/ --> done/   (valid, inserted or duplicate)
                                  --> error/  (poison: parse failure / missing required field)
"""
from __future__ import annotations

import csv
import json
import logging
import os
import sqlite3
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Mapping

ROOT: Path = Path(os.getenv("LAB_ROOT", "/root")) / "q"
REQUIRED_FIELDS: tuple[str, ...] = ("msg_id", "order_no", "seq", "amount")
DB_TIMEOUT_SECONDS: float = 30.0

LOGGER = logging.getLogger(__name__)


class PoisonMessage(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason: str = reason


class Ledger:
    def __init__(self, db_path: Path) -> None:
        self._connection = sqlite3.connect(db_path, timeout=DB_TIMEOUT_SECONDS)
        with self._connection:
            self._connection.execute(
                """CREATE TABLE IF NOT EXISTS processed (
                       msg_id       TEXT PRIMARY KEY,
                       order_no     TEXT NOT NULL,
                       seq          INTEGER NOT NULL,
                       amount       REAL NOT NULL,
                       processed_at TEXT NOT NULL
                   )"""
            )

    def insert(self, message: Mapping[str, Any]) -> bool:
        with self._connection:
            cursor = self._connection.execute(
                "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (msg_id) DO NOTHING",
                (message["msg_id"], message["order_no"], message["seq"], message["amount"],
                 datetime.now(timezone.utc).isoformat()),
            )
        return cursor.rowcount == 1

    def close(self) -> None:
        self._connection.close()


class Consumer:
    def __init__(self, root: Path, ledger: Ledger) -> None:
        self._inbox = root / "inbox"
        self._processing = root / "processing"
        self._done = root / "done"
        self._error = root / "error"
        self._ledger = ledger
        self.duplicate_ids: list[str] = []
        self.rejected: list[tuple[str, str]] = []

    def _pending(self) -> list[Path]:
        return sorted(path for path in self._inbox.iterdir() if path.is_file())

    def _claim(self, source: Path) -> Path:
        # rename(2) is atomic on one filesystem: only one consumer can win the claim
        target = self._processing / source.name
        source.rename(target)
        return target

    @staticmethod
    def _parse(path: Path) -> dict[str, Any]:
        try:
            message = json.loads(path.read_bytes().decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise PoisonMessage("parse") from error
        if not isinstance(message, dict):
            raise PoisonMessage("parse")
        if any(message.get(field) is None for field in REQUIRED_FIELDS):
            raise PoisonMessage("missing-field")
        return message

    def run(self) -> None:
        for source in self._pending():
            claimed = self._claim(source)
            try:
                message = self._parse(claimed)
            except PoisonMessage as poison:
                claimed.rename(self._error / claimed.name)
                self.rejected.append((claimed.name, poison.reason))
                LOGGER.warning("%s -> error (%s)", claimed.name, poison.reason)
                continue
            if not self._ledger.insert(message):
                self.duplicate_ids.append(str(message["msg_id"]))
                LOGGER.info("%s: duplicate msg_id %s ignored", claimed.name, message["msg_id"])
            claimed.rename(self._done / claimed.name)


def write_reports(root: Path, consumer: Consumer) -> None:
    (root / "dup.txt").write_text("".join(f"{msg_id}\n" for msg_id in sorted(set(consumer.duplicate_ids))),
                                  encoding="utf-8")
    with (root / "error.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["file", "reason"])
        writer.writerows(sorted(consumer.rejected))


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s [%(levelname)s] %(message)s")
    ledger = Ledger(ROOT / "ledger.db")
    consumer = Consumer(ROOT, ledger)
    try:
        consumer.run()
    finally:
        ledger.close()
    write_reports(ROOT, consumer)
    LOGGER.info("duplicates=%d rejected=%d", len(consumer.duplicate_ids), len(consumer.rejected))
    return 0


if __name__ == "__main__":
    sys.exit(main())
