"""Queue consumer (lab 'queue', step 3).

Design, in Java terms: a QueueConsumer service with an injected LedgerRepository;
MessageValidator throws checked-style exceptions (InvalidMessageException subclasses),
the service decides the routing.
"""
import json
import logging
import os
import sqlite3
import sys
from datetime import datetime, timezone
from typing import Any, Dict, List, Optional

LOGGER = logging.getLogger("QueueConsumer")

QUEUE_ROOT = "/root/q"
REQUIRED_FIELDS: List[str] = ["msg_id", "order_no", "seq", "amount"]


class InvalidMessageException(Exception):
    """Base class: the message can never be processed (poison)."""
    reason: str = "invalid"


class MessageParseException(InvalidMessageException):
    reason = "parse"


class MissingFieldException(InvalidMessageException):
    reason = "missing-field"


class MessageValidator:
    def __init__(self, required_fields: List[str]) -> None:
        self.required_fields = required_fields

    def parse(self, path: str) -> Dict[str, Any]:
        with open(path, "r", encoding="utf-8") as reader:
            try:
                payload = json.load(reader)
            except json.JSONDecodeError as e:
                raise MessageParseException(f"{os.path.basename(path)}: {e}") from e
        if not isinstance(payload, dict):
            raise MessageParseException(f"{os.path.basename(path)}: root is not a JSON object")
        for field_name in self.required_fields:
            if payload.get(field_name) is None:
                raise MissingFieldException(f"{os.path.basename(path)}: '{field_name}' missing")
        return payload


class LedgerRepository:
    DDL = """
        CREATE TABLE IF NOT EXISTS processed (
            msg_id       VARCHAR(64)  NOT NULL PRIMARY KEY,
            order_no     VARCHAR(32)  NOT NULL,
            seq          INTEGER      NOT NULL,
            amount       DECIMAL(15,2) NOT NULL,
            processed_at TIMESTAMP    NOT NULL
        )
    """

    def __init__(self, db_path: str) -> None:
        self.connection = sqlite3.connect(db_path, timeout=30.0)
        self.connection.execute(self.DDL)
        self.connection.commit()

    def insert_if_absent(self, message: Dict[str, Any]) -> bool:
        """Returns true when a row was inserted, false when msg_id already existed."""
        cursor = self.connection.execute(
            "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (
                message["msg_id"],
                message["order_no"],
                message["seq"],
                message["amount"],
                datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f"),
            ),
        )
        self.connection.commit()
        return cursor.rowcount == 1

    def close(self) -> None:
        self.connection.close()


class QueueConsumer:
    def __init__(self, root: str, repository: LedgerRepository, validator: MessageValidator) -> None:
        self.inbox_dir = os.path.join(root, "inbox")
        self.processing_dir = os.path.join(root, "processing")
        self.done_dir = os.path.join(root, "done")
        self.error_dir = os.path.join(root, "error")
        self.repository = repository
        self.validator = validator
        self.duplicates: List[str] = []
        self.failures: List[List[str]] = []

    def run(self) -> None:
        for file_name in sorted(os.listdir(self.inbox_dir)):
            if not os.path.isfile(os.path.join(self.inbox_dir, file_name)):
                continue
            claimed: Optional[str] = self.claim(file_name)
            if claimed is not None:
                self.process(file_name, claimed)
        LOGGER.info("finished: %d duplicate(s), %d failure(s)", len(self.duplicates), len(self.failures))

    def claim(self, file_name: str) -> Optional[str]:
        source = os.path.join(self.inbox_dir, file_name)
        target = os.path.join(self.processing_dir, file_name)
        try:
            os.rename(source, target)
        except FileNotFoundError:
            LOGGER.debug("%s already claimed by another consumer", file_name)
            return None
        return target

    def process(self, file_name: str, path: str) -> None:
        try:
            message = self.validator.parse(path)
        except InvalidMessageException as e:
            LOGGER.warning("rejected %s", e)
            self.failures.append([file_name, e.reason])
            os.rename(path, os.path.join(self.error_dir, file_name))
            return

        if self.repository.insert_if_absent(message):
            LOGGER.info("processed %s (msg_id=%s)", file_name, message["msg_id"])
        else:
            LOGGER.info("duplicate %s (msg_id=%s) ignored", file_name, message["msg_id"])
            self.duplicates.append(str(message["msg_id"]))
        os.rename(path, os.path.join(self.done_dir, file_name))


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s [%(levelname)s] %(name)s - %(message)s")
    repository = LedgerRepository(os.path.join(QUEUE_ROOT, "ledger.db"))
    try:
        consumer = QueueConsumer(QUEUE_ROOT, repository, MessageValidator(REQUIRED_FIELDS))
        consumer.run()
    finally:
        repository.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
