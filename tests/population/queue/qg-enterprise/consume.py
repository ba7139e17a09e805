#!/usr/bin/env python3
"""
QueueConsumer -- lab "queue".

Lifecycle of one message file:
    inbox/  --(atomic rename = claim)-->  processing/  --> done/ | error/

Idempotency is enforced by the database (PRIMARY KEY on msg_id); the
consumer never asks "does it exist?" first.
"""
from __future__ import annotations

import argparse
import enum
import json
import logging
import os
import sqlite3
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Optional

LOG = logging.getLogger("queue.consumer")

REQUIRED_FIELDS = ("msg_id", "order_no", "seq", "amount")


class Outcome(enum.Enum):
    STORED = "stored"
    DUPLICATE = "duplicate"
    PARSE_ERROR = "parse"
    MISSING_FIELD = "missing-field"


@dataclass(frozen=True)
class Message:
    msg_id: str
    order_no: str
    seq: int
    amount: float
    currency: Optional[str]
    created_at: Optional[str]


class InvalidMessage(Exception):
    def __init__(self, outcome: Outcome, detail: str):
        super().__init__(detail)
        self.outcome = outcome


class MessageParser:
    @staticmethod
    def parse(raw: bytes) -> Message:
        try:
            doc = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            raise InvalidMessage(Outcome.PARSE_ERROR, str(exc)) from exc
        if not isinstance(doc, dict):
            raise InvalidMessage(Outcome.PARSE_ERROR, f"top level is {type(doc).__name__}, not an object")
        missing = [f for f in REQUIRED_FIELDS if doc.get(f) is None]
        if missing:
            raise InvalidMessage(Outcome.MISSING_FIELD, "missing: " + ",".join(missing))
        return Message(doc["msg_id"], doc["order_no"], doc["seq"], doc["amount"],
                       doc.get("currency"), doc.get("created_at"))


class LedgerRepository:
    DDL = """
    CREATE TABLE IF NOT EXISTS processed (
        msg_id       TEXT    PRIMARY KEY,
        order_no     TEXT    NOT NULL,
        seq          INTEGER NOT NULL,
        amount       NUMERIC NOT NULL,
        currency     TEXT,
        created_at   TEXT,
        source_file  TEXT    NOT NULL,
        processed_at TEXT    NOT NULL
    );
    CREATE INDEX IF NOT EXISTS ix_processed_order ON processed (order_no, seq);
    CREATE TABLE IF NOT EXISTS audit_event (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        file        TEXT NOT NULL,
        msg_id      TEXT,
        outcome     TEXT NOT NULL,
        detail      TEXT,
        at          TEXT NOT NULL
    );
    """

    def __init__(self, path: Path):
        self.conn = sqlite3.connect(str(path), timeout=60, isolation_level=None)
        self.conn.execute("PRAGMA busy_timeout = 60000")
        self.conn.executescript(self.DDL)

    @staticmethod
    def _now() -> str:
        return datetime.now(timezone.utc).isoformat(timespec="milliseconds")

    def store(self, msg: Message, source_file: str) -> Outcome:
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            cur = self.conn.execute(
                "INSERT INTO processed (msg_id, order_no, seq, amount, currency, created_at, source_file, processed_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (msg_id) DO NOTHING",
                (msg.msg_id, msg.order_no, msg.seq, msg.amount, msg.currency, msg.created_at, source_file, self._now()))
            outcome = Outcome.STORED if cur.rowcount == 1 else Outcome.DUPLICATE
            self._audit(source_file, msg.msg_id, outcome, None)
            self.conn.execute("COMMIT")
            return outcome
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise

    def reject(self, source_file: str, err: InvalidMessage) -> None:
        self.conn.execute("BEGIN IMMEDIATE")
        self._audit(source_file, None, err.outcome, str(err))
        self.conn.execute("COMMIT")

    def _audit(self, file, msg_id, outcome: Outcome, detail) -> None:
        self.conn.execute("INSERT INTO audit_event (file, msg_id, outcome, detail, at) VALUES (?, ?, ?, ?, ?)",
                          (file, msg_id, outcome.value, detail, self._now()))

    def duplicate_ids(self) -> list[str]:
        return [r[0] for r in self.conn.execute(
            "SELECT DISTINCT msg_id FROM audit_event WHERE outcome = ? ORDER BY msg_id", (Outcome.DUPLICATE.value,))]

    def rejections(self) -> list[tuple[str, str]]:
        # latest verdict per file that is currently in error/
        return [(r[0], r[1]) for r in self.conn.execute(
            "SELECT a.file, a.outcome FROM audit_event AS a"
            " WHERE a.outcome IN (?, ?)"
            "   AND a.id = (SELECT MAX(b.id) FROM audit_event AS b WHERE b.file = a.file)"
            " ORDER BY a.file",
            (Outcome.PARSE_ERROR.value, Outcome.MISSING_FIELD.value))]

    def close(self) -> None:
        self.conn.close()


class QueueConsumer:
    def __init__(self, root: Path):
        self.root = root
        self.inbox, self.processing, self.done, self.error = (root / d for d in ("inbox", "processing", "done", "error"))
        for d in (self.inbox, self.processing, self.done, self.error):
            d.mkdir(parents=True, exist_ok=True)
        self.repo = LedgerRepository(root / "ledger.db")
        self.stats = {o: 0 for o in Outcome}

    def claim(self, name: str) -> Optional[Path]:
        target = self.processing / name
        try:
            (self.inbox / name).rename(target)
        except FileNotFoundError:
            LOG.debug("lost the race for %s", name)
            return None
        return target

    def handle(self, work: Path) -> None:
        try:
            msg = MessageParser.parse(work.read_bytes())
        except InvalidMessage as err:
            LOG.warning("%s -> error/ (%s: %s)", work.name, err.outcome.value, err)
            self.repo.reject(work.name, err)
            work.rename(self.error / work.name)
            self.stats[err.outcome] += 1
            return
        outcome = self.repo.store(msg, work.name)
        LOG.info("%s -> done/ (%s %s)", work.name, outcome.value, msg.msg_id)
        work.rename(self.done / work.name)
        self.stats[outcome] += 1

    def run(self) -> None:
        while True:
            names = sorted(p.name for p in self.inbox.iterdir() if p.is_file())
            if not names:
                break
            for name in names:
                work = self.claim(name)
                if work is not None:
                    self.handle(work)

    def write_reports(self) -> None:
        dups = self.repo.duplicate_ids()
        (self.root / "dup.txt").write_text("".join(i + "\n" for i in dups))
        in_error = {p.name for p in self.error.iterdir()}
        rows = [f"{f},{r}\n" for f, r in self.repo.rejections() if f in in_error]
        (self.root / "error.csv").write_text("file,reason\n" + "".join(rows))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="file-queue consumer")
    ap.add_argument("--root", default=os.environ.get("QUEUE_ROOT", "/root/q"), type=Path)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s [%(process)d] %(message)s", stream=sys.stderr)
    consumer = QueueConsumer(args.root)
    try:
        consumer.run()
        consumer.write_reports()
    finally:
        consumer.repo.close()
    LOG.info("summary: %s", {k.value: v for k, v in consumer.stats.items()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
