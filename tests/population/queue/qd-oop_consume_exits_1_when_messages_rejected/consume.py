#!/usr/bin/env python3
"""Directory queue consumer: inbox -> processing -> done | error."""
from __future__ import annotations

import argparse
import json
import logging
import os
import sqlite3
import sys
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

REQUIRED = ("msg_id", "order_no", "seq", "amount")
logger = logging.getLogger(__name__)


class PoisonMessage(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class RunResult:
    inserted: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    rejected: dict[str, str] = field(default_factory=dict)   # file -> reason


class ProcessedRepository:
    def __init__(self, db_path: Path) -> None:
        self._conn = sqlite3.connect(db_path, timeout=60)
        self._conn.execute(
            """CREATE TABLE IF NOT EXISTS processed (
                   msg_id       TEXT    NOT NULL UNIQUE,
                   order_no     TEXT    NOT NULL,
                   seq          INTEGER NOT NULL,
                   amount       NUMERIC NOT NULL,
                   processed_at TEXT    NOT NULL
               )"""
        )
        self._conn.commit()

    def add(self, msg: dict) -> bool:
        with self._conn:
            cur = self._conn.execute(
                "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at) "
                "VALUES (:msg_id, :order_no, :seq, :amount, :ts)",
                {**{k: msg[k] for k in REQUIRED}, "ts": datetime.now().astimezone().isoformat()},
            )
        return cur.rowcount == 1

    def close(self) -> None:
        self._conn.close()


class QueueConsumer:
    def __init__(self, root: Path, repo: ProcessedRepository) -> None:
        self.root = root
        self.repo = repo

    def _dir(self, name: str) -> Path:
        return self.root / name

    @staticmethod
    def decode(path: Path) -> dict:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise PoisonMessage("parse")
        if not isinstance(data, dict):
            raise PoisonMessage("parse")
        if any(data.get(k) is None for k in REQUIRED):
            raise PoisonMessage("missing-field")
        return data

    def claim(self, entry: Path) -> Path | None:
        target = self._dir("processing") / entry.name
        try:
            os.rename(entry, target)
        except FileNotFoundError:
            return None
        return target

    def run(self) -> RunResult:
        result = RunResult()
        for entry in sorted(self._dir("inbox").iterdir()):
            if not entry.is_file():
                continue
            path = self.claim(entry)
            if path is None:
                continue
            try:
                msg = self.decode(path)
            except PoisonMessage as poison:
                os.rename(path, self._dir("error") / path.name)
                result.rejected[path.name] = poison.reason
                logger.warning("%s: %s -> error/", path.name, poison.reason)
                continue
            if self.repo.add(msg):
                result.inserted.append(msg["msg_id"])
            else:
                result.duplicates.append(msg["msg_id"])
                logger.info("%s: duplicate msg_id %s ignored", path.name, msg["msg_id"])
            os.rename(path, self._dir("done") / path.name)
        return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("queue_dir", nargs="?", default="/root/q", type=Path)
    ap.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"])
    args = ap.parse_args()
    logging.basicConfig(level=args.log_level, format="%(levelname)-7s %(message)s")

    repo = ProcessedRepository(args.queue_dir / "ledger.db")
    try:
        result = QueueConsumer(args.queue_dir, repo).run()
    finally:
        repo.close()
    logger.info("inserted=%d duplicates=%d rejected=%d",
                len(result.inserted), len(result.duplicates), len(result.rejected))
    # non-zero exit so that cron / systemd notices poison messages
    return 1 if result.rejected else 0


if __name__ == "__main__":
    sys.exit(main())
