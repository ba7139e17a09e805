#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""
QueueConsumer - consumes JSON messages from a directory based queue.

Layering (like at work): Message (DTO) -> MessageParser -> LedgerRepository (DAO)
-> QueueConsumer (service) -> main().
"""
import json
import os
import sqlite3
import sys
from dataclasses import dataclass
from typing import List, Optional


class MessageParseException(Exception):
    pass


class MissingFieldException(Exception):
    pass


@dataclass
class Message:
    msg_id: str
    order_no: str
    seq: int
    amount: float
    currency: Optional[str] = None
    created_at: Optional[str] = None
    processed_at: Optional[str] = None   # filled in by the DB (DEFAULT)


class MessageParser:
    REQUIRED_FIELDS: List[str] = ["msg_id", "order_no", "seq", "amount"]

    def parse(self, path: str) -> Message:
        try:
            with open(path, "r", encoding="utf-8") as f:
                data = json.load(f)
        except (ValueError, UnicodeDecodeError) as e:
            raise MessageParseException(str(e))
        if not isinstance(data, dict):
            raise MessageParseException("root element is not an object")
        for field in self.REQUIRED_FIELDS:
            if data.get(field) is None:
                raise MissingFieldException(field)
        return Message(
            msg_id=data["msg_id"],
            order_no=data["order_no"],
            seq=data["seq"],
            amount=data["amount"],
            currency=data.get("currency"),
            created_at=data.get("created_at"),
        )


class LedgerRepository:
    CREATE_TABLE_SQL = """
        CREATE TABLE IF NOT EXISTS processed (
            msg_id       VARCHAR(64)  NOT NULL,
            order_no     VARCHAR(32)  NOT NULL,
            seq          INTEGER      NOT NULL,
            amount       BIGINT       NOT NULL,
            currency     VARCHAR(3),
            created_at   VARCHAR(40),
            processed_at TIMESTAMP    DEFAULT CURRENT_TIMESTAMP,
            CONSTRAINT pk_processed PRIMARY KEY (msg_id)
        )
    """
    INSERT_SQL = """
        INSERT OR IGNORE INTO processed
            (msg_id, order_no, seq, amount, currency, created_at, processed_at)
        VALUES (?, ?, ?, ?, ?, ?, ?)
    """

    def __init__(self, db_path: str):
        self.connection = sqlite3.connect(db_path, timeout=30)
        self.connection.execute(self.CREATE_TABLE_SQL)
        self.connection.commit()

    def save(self, message: Message) -> bool:
        """returns true if a row was inserted, false if msg_id already existed"""
        cursor = self.connection.cursor()
        try:
            cursor.execute(self.INSERT_SQL, (
                message.msg_id,
                message.order_no,
                message.seq,
                message.amount,
                message.currency,
                message.created_at,
                message.processed_at,
            ))
            self.connection.commit()
            return cursor.rowcount == 1
        finally:
            cursor.close()

    def close(self) -> None:
        self.connection.close()


class QueueConsumer:
    def __init__(self, base_dir: str):
        self.base_dir = base_dir
        self.inbox_dir = os.path.join(base_dir, "inbox")
        self.processing_dir = os.path.join(base_dir, "processing")
        self.done_dir = os.path.join(base_dir, "done")
        self.error_dir = os.path.join(base_dir, "error")
        self.parser = MessageParser()
        self.repository = LedgerRepository(os.path.join(base_dir, "ledger.db"))
        self.duplicate_ids: List[str] = []
        self.errors: List[tuple] = []

    def run(self) -> None:
        for file_name in sorted(os.listdir(self.inbox_dir)):
            if not file_name.endswith(".json"):
                continue
            self.handle(file_name)
        self.repository.close()

    def handle(self, file_name: str) -> None:
        processing_path = os.path.join(self.processing_dir, file_name)
        try:
            os.rename(os.path.join(self.inbox_dir, file_name), processing_path)
        except FileNotFoundError:
            return  # taken by another consumer instance
        try:
            message = self.parser.parse(processing_path)
        except MessageParseException:
            self.move_to_error(file_name, "parse")
            return
        except MissingFieldException:
            self.move_to_error(file_name, "missing-field")
            return
        inserted = self.repository.save(message)
        if not inserted:
            self.duplicate_ids.append(message.msg_id)
        os.rename(processing_path, os.path.join(self.done_dir, file_name))

    def move_to_error(self, file_name: str, reason: str) -> None:
        os.rename(os.path.join(self.processing_dir, file_name),
                  os.path.join(self.error_dir, file_name))
        self.errors.append((file_name, reason))


def main(args: List[str]) -> int:
    base_dir = "/root/q"
    consumer = QueueConsumer(base_dir)
    consumer.run()
    System_out = sys.stdout
    for file_name, reason in consumer.errors:
        System_out.write("ERROR " + file_name + " " + reason + "\n")
    for msg_id in consumer.duplicate_ids:
        System_out.write("DUPLICATE " + msg_id + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
