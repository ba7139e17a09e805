#!/usr/bin/env python3
"""
QueueConsumer - consumes JSON messages from a directory-based queue.

Lifecycle of a message file:
    inbox/  --(claim: atomic rename)-->  processing/  --(validate + persist)-->  done/
                                                       \--(invalid)----------->  error/
"""
import json
import os
import sqlite3
import sys
from datetime import datetime, timezone


class ValidationResult:
    VALID = "valid"
    PARSE_ERROR = "parse"
    MISSING_FIELD = "missing-field"


class QueueConsumer:
    QUEUE_ROOT = "/root/q"
    REQUIRED_FIELDS = ("msg_id", "order_no", "seq", "amount")

    def __init__(self, queueRoot=QUEUE_ROOT):
        self.queueRoot = queueRoot
        self.inboxDir = os.path.join(queueRoot, "inbox")
        self.processingDir = os.path.join(queueRoot, "processing")
        self.doneDir = os.path.join(queueRoot, "done")
        self.errorDir = os.path.join(queueRoot, "error")
        self.dbPath = os.path.join(queueRoot, "ledger.db")
        self.connection = None
        self.duplicateIds = []
        self.errorEntries = []

    # ------------------------------------------------------------------ setup
    def initialize(self):
        for directory in (self.inboxDir, self.processingDir, self.doneDir, self.errorDir):
            os.makedirs(directory, exist_ok=True)
        self.connection = sqlite3.connect(self.dbPath, timeout=30)
        self.connection.execute(
            "CREATE TABLE IF NOT EXISTS processed ("
            "  msg_id       TEXT PRIMARY KEY,"
            "  order_no     TEXT,"
            "  seq          INTEGER,"
            "  amount       NUMERIC,"
            "  processed_at TEXT"
            ")"
        )
        self.connection.commit()

    # -------------------------------------------------------------- claiming
    def claimFile(self, fileName):
        """Returns the path in processing/, or None if another consumer claimed it first."""
        source = os.path.join(self.inboxDir, fileName)
        target = os.path.join(self.processingDir, fileName)
        try:
            os.rename(source, target)
            return target
        except FileNotFoundError:
            return None

    # ------------------------------------------------------------ validation
    def validateMessage(self, rawBytes):
        try:
            message = json.loads(rawBytes)
        except ValueError:
            return ValidationResult.PARSE_ERROR, None
        if not isinstance(message, dict):
            return ValidationResult.PARSE_ERROR, None
        for fieldName in self.REQUIRED_FIELDS:
            if fieldName not in message:
                return ValidationResult.MISSING_FIELD, None
        return ValidationResult.VALID, message

    # ----------------------------------------------------------- persistence
    def persistMessage(self, message):
        """Returns True if a new row was written, False if msg_id was already there."""
        cursor = self.connection.execute(
            "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT(msg_id) DO NOTHING",
            (
                message["msg_id"],
                message["order_no"],
                message["seq"],
                message["amount"],
                datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S"),
            ),
        )
        self.connection.commit()
        return cursor.rowcount == 1

    # -------------------------------------------------------------- main loop
    def processOne(self, fileName):
        workPath = self.claimFile(fileName)
        if workPath is None:
            return
        with open(workPath, "rb") as fileHandle:
            rawBytes = fileHandle.read()

        status, message = self.validateMessage(rawBytes)
        if status != ValidationResult.VALID:
            os.rename(workPath, os.path.join(self.errorDir, fileName))
            self.errorEntries.append((fileName, status))
            return

        if not self.persistMessage(message):
            self.duplicateIds.append(str(message["msg_id"]))
        os.rename(workPath, os.path.join(self.doneDir, fileName))

    def run(self):
        self.initialize()
        try:
            for fileName in sorted(os.listdir(self.inboxDir)):
                if os.path.isfile(os.path.join(self.inboxDir, fileName)):
                    self.processOne(fileName)
        finally:
            self.connection.close()
        self.writeReports()

    def writeReports(self):
        with open(os.path.join(self.queueRoot, "dup.txt"), "w", encoding="utf-8") as out:
            for msgId in sorted(set(self.duplicateIds)):
                out.write(msgId + "\n")
        with open(os.path.join(self.queueRoot, "error.csv"), "w", encoding="utf-8") as out:
            out.write("file,reason\n")
            for fileName, reason in sorted(self.errorEntries):
                out.write(fileName + "," + reason + "\n")


def main():
    QueueConsumer().run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
