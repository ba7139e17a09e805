#!/usr/bin/env python3
"""File-queue consumer.

inbox/ -> processing/ (claim by rename) -> done/ | error/

Idempotency is the job of the ``processed`` table (msg_id is its PRIMARY KEY):
a redelivered message is inserted with ON CONFLICT DO NOTHING and only noted
in ``duplicate_seen``.
"""
from __future__ import annotations

import argparse
import csv
import json
import logging
import sqlite3
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator, Optional

log = logging.getLogger("consume")

REQUIRED_FIELDS = ("msg_id", "order_no", "seq", "amount")


def utcnow() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class Rejected(Exception):
    """A message that can never be processed (poison)."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


@dataclass(frozen=True)
class Message:
    msg_id: str
    order_no: str
    seq: int
    amount: float

    @classmethod
    def from_bytes(cls, raw: bytes) -> "Message":
        try:
            obj = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            raise Rejected("parse", str(exc)) from exc
        if not isinstance(obj, dict):
            raise Rejected("parse", f"top level is {type(obj).__name__}, not an object")
        missing = [f for f in REQUIRED_FIELDS if obj.get(f) is None]
        if missing:
            raise Rejected("missing-field", ",".join(missing))
        return cls(obj["msg_id"], obj["order_no"], obj["seq"], obj["amount"])


class Ledger:
    DDL = """
    CREATE TABLE IF NOT EXISTS processed (
        msg_id       TEXT NOT NULL PRIMARY KEY,
        order_no     TEXT NOT NULL,
        seq          INTEGER NOT NULL,
        amount       REAL NOT NULL,
        processed_at TEXT NOT NULL,
        source_file  TEXT
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS duplicate_seen (
        msg_id      TEXT NOT NULL,
        source_file TEXT NOT NULL,
        seen_at     TEXT NOT NULL
    );
    """

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(str(path), timeout=60, isolation_level=None)
        self.conn.executescript(self.DDL)

    def record(self, msg: Message, source_file: str) -> bool:
        """True if the message was new, False if msg_id was already there."""
        with self.conn:
            self.conn.execute("BEGIN IMMEDIATE")
            cur = self.conn.execute(
                "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at, source_file)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (msg_id) DO NOTHING",
                (msg.msg_id, msg.order_no, msg.seq, msg.amount, utcnow(), source_file),
            )
            if cur.rowcount == 0:
                self.conn.execute(
                    "INSERT INTO duplicate_seen VALUES (?, ?, ?)",
                    (msg.msg_id, source_file, utcnow()),
                )
                return False
            return True

    def duplicate_ids(self) -> list[str]:
        rows = self.conn.execute("SELECT DISTINCT msg_id FROM duplicate_seen ORDER BY msg_id")
        return [r[0] for r in rows]

    def close(self) -> None:
        self.conn.close()


class FileQueue:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.inbox = root / "inbox"
        self.processing = root / "processing"
        self.done = root / "done"
        self.error = root / "error"

    def ensure(self) -> None:
        for d in (self.inbox, self.processing, self.done, self.error):
            d.mkdir(parents=True, exist_ok=True)

    def claim_all(self) -> Iterator[Path]:
        """Yield files as they are claimed into processing/."""
        for entry in sorted(self.inbox.iterdir()):
            if not entry.is_file():
                continue
            target = self.processing / entry.name
            try:
                entry.rename(target)
            except FileNotFoundError:
                log.debug("%s: taken by another consumer", entry.name)
                continue
            yield target

    def finish(self, path: Path, ok: bool) -> None:
        path.rename((self.done if ok else self.error) / path.name)


@dataclass
class Stats:
    done: int = 0
    duplicate: int = 0
    rejected: int = 0


class Consumer:
    def __init__(self, queue: FileQueue, ledger: Ledger) -> None:
        self.queue = queue
        self.ledger = ledger
        self.stats = Stats()

    def handle(self, path: Path) -> None:
        try:
            msg = Message.from_bytes(path.read_bytes())
        except Rejected as rej:
            log.warning("%s -> error/ (%s)", path.name, rej)
            self.queue.finish(path, ok=False)
            self.stats.rejected += 1
            return
        if self.ledger.record(msg, path.name):
            log.info("%s -> done/ (%s)", path.name, msg.msg_id)
        else:
            log.info("%s -> done/ (duplicate %s ignored)", path.name, msg.msg_id)
            self.stats.duplicate += 1
        self.queue.finish(path, ok=True)
        self.stats.done += 1

    def run(self, limit: Optional[int] = None) -> Stats:
        for n, path in enumerate(self.queue.claim_all(), start=1):
            self.handle(path)
            if limit and n >= limit:
                break
        return self.stats


class Reports:
    def __init__(self, queue: FileQueue, ledger: Ledger) -> None:
        self.queue = queue
        self.ledger = ledger

    def write_dup(self, path: Path) -> None:
        path.write_text("".join(f"{i}\n" for i in self.ledger.duplicate_ids()), encoding="utf-8")

    def write_errors(self, path: Path) -> None:
        with path.open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(["file", "reason"])
            for f in sorted(p for p in self.queue.error.iterdir() if p.is_file()):
                try:
                    Message.from_bytes(f.read_bytes())
                    reason = "unknown"
                except Rejected as rej:
                    reason = rej.reason
                w.writerow([f.name, reason])


def parse_args(argv: Optional[list[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="directory queue consumer")
    p.add_argument("--queue-dir", type=Path, default=Path("/root/q"), help="queue root (default: %(default)s)")
    p.add_argument("--db", type=Path, help="SQLite ledger (default: QUEUE_DIR/ledger.db)")
    p.add_argument("--limit", type=int, default=0, help="stop after N messages (0 = all)")
    p.add_argument("--write-reports", action="store_true", help="also write dup.txt and error.csv into QUEUE_DIR")
    p.add_argument("-v", "--verbose", action="count", default=0)
    return p.parse_args(argv)


def main(argv: Optional[list[str]] = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose > 1 else logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    queue = FileQueue(args.queue_dir)
    queue.ensure()
    ledger = Ledger(args.db or args.queue_dir / "ledger.db")
    try:
        stats = Consumer(queue, ledger).run(limit=args.limit or None)
        log.info("done=%d (duplicates %d) error=%d", stats.done, stats.duplicate, stats.rejected)
        if args.write_reports:
            reports = Reports(queue, ledger)
            reports.write_dup(args.queue_dir / "dup.txt")
            reports.write_errors(args.queue_dir / "error.csv")
    finally:
        ledger.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
