#!/usr/bin/env python3
"""Queue consumer: inbox -> processing -> done/error, idempotent via a database key."""
import json
import logging
import sqlite3
import sys
from datetime import datetime
from pathlib import Path
from typing import Optional

QUEUE_DIR = Path("/root/q")
INBOX = QUEUE_DIR / "inbox"
PROCESSING = QUEUE_DIR / "processing"
DONE = QUEUE_DIR / "done"
ERROR = QUEUE_DIR / "error"
DATABASE = QUEUE_DIR / "ledger.db"
REQUIRED_FIELDS = ("msg_id", "order_no", "seq", "amount")

log = logging.getLogger("consume")


class RejectedMessage(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ProcessedRepository:
    # An order's messages are keyed by (order_no, msg_id): the order is the aggregate root.
    CREATE_TABLE = """
        CREATE TABLE IF NOT EXISTS processed (
            order_no     TEXT    NOT NULL,
            msg_id       TEXT    NOT NULL,
            seq          INTEGER NOT NULL,
            amount       NUMERIC NOT NULL,
            processed_at TEXT    NOT NULL,
            PRIMARY KEY (order_no, msg_id)
        )
    """

    def __init__(self, path: Path) -> None:
        self._conn = sqlite3.connect(str(path), timeout=30.0)
        with self._conn:
            self._conn.execute(self.CREATE_TABLE)

    def save_if_absent(self, message: dict) -> bool:
        with self._conn:
            cursor = self._conn.execute(
                "INSERT OR IGNORE INTO processed (order_no, msg_id, seq, amount, processed_at) VALUES (?, ?, ?, ?, ?)",
                (message["order_no"], message["msg_id"], message["seq"], message["amount"],
                 datetime.now().astimezone().isoformat()),
            )
        return cursor.rowcount > 0

    def close(self) -> None:
        self._conn.close()


class FileQueueConsumer:
    def __init__(self, repository: ProcessedRepository) -> None:
        self._repository = repository
        self.duplicates: list[str] = []
        self.errors: list[tuple[str, str]] = []

    @staticmethod
    def _claim(path: Path) -> Optional[Path]:
        target = PROCESSING / path.name
        try:
            path.rename(target)
        except FileNotFoundError:
            log.debug("lost race for %s", path.name)
            return None
        return target

    @staticmethod
    def _read(path: Path) -> dict:
        try:
            payload = json.loads(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise RejectedMessage("parse") from exc
        if not isinstance(payload, dict):
            raise RejectedMessage("parse")
        if any(payload.get(field) is None for field in REQUIRED_FIELDS):
            raise RejectedMessage("missing-field")
        return payload

    def consume_all(self) -> None:
        for candidate in sorted(p for p in INBOX.iterdir() if p.is_file()):
            claimed = self._claim(candidate)
            if claimed is None:
                continue
            try:
                message = self._read(claimed)
            except RejectedMessage as rejection:
                claimed.rename(ERROR / claimed.name)
                self.errors.append((claimed.name, rejection.reason))
                log.warning("%s rejected: %s", claimed.name, rejection.reason)
                continue
            if not self._repository.save_if_absent(message):
                self.duplicates.append(str(message["msg_id"]))
                log.info("%s duplicate of msg_id %s", claimed.name, message["msg_id"])
            claimed.rename(DONE / claimed.name)
            log.info("%s done", claimed.name)


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    repository = ProcessedRepository(DATABASE)
    consumer = FileQueueConsumer(repository)
    try:
        consumer.consume_all()
    finally:
        repository.close()
    log.info("duplicates=%s errors=%s", sorted(consumer.duplicates), consumer.errors)
    return 0


if __name__ == "__main__":
    sys.exit(main())
