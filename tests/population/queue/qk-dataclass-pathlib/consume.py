#!/usr/bin/env python3
"""File-queue consumer for the queue lab.

inbox/ -> processing/ (claim by rename, then read) -> done/ or error/

Idempotency is the job of the database: processed.msg_id is the PRIMARY KEY and
the insert is ``ON CONFLICT(msg_id) DO NOTHING``, so a redelivered message (or a
second consumer racing this one) can never add a second row.
"""
from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

REQUIRED = ("msg_id", "order_no", "seq", "amount")

SCHEMA = """
CREATE TABLE IF NOT EXISTS processed (
    msg_id       TEXT PRIMARY KEY,
    order_no     TEXT NOT NULL,
    seq          INTEGER NOT NULL,
    amount       NUMERIC NOT NULL,
    processed_at TEXT NOT NULL
)
"""


class Rejected(Exception):
    """A message that must go to error/ (reason: parse | missing-field)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Message:
    msg_id: object
    order_no: object
    seq: object
    amount: object

    @classmethod
    def from_bytes(cls, raw: bytes) -> "Message":
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):  # JSONDecodeError and UnicodeDecodeError are ValueErrors
            raise Rejected("parse") from None
        if not isinstance(data, dict):
            # valid JSON but not an object: cannot be a message at all
            raise Rejected("parse")
        # null counts as missing; 0 / "" / false are present values
        if any(data.get(k) is None for k in REQUIRED):
            raise Rejected("missing-field")
        return cls(**{k: data[k] for k in REQUIRED})


def _bindable(value: object) -> object:
    """sqlite3 only binds str/int/float/bytes/None; keep anything else as JSON text."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int) and not (-(2**63) <= value < 2**63):
        return str(value)
    if isinstance(value, (str, int, float)):
        return value
    return json.dumps(value, ensure_ascii=False)


@dataclass
class Queue:
    root: Path

    @property
    def inbox(self) -> Path:
        return self.root / "inbox"

    @property
    def processing(self) -> Path:
        return self.root / "processing"

    @property
    def done(self) -> Path:
        return self.root / "done"

    @property
    def error(self) -> Path:
        return self.root / "error"

    def ensure(self) -> None:
        for d in (self.inbox, self.processing, self.done, self.error):
            d.mkdir(parents=True, exist_ok=True)

    def pending(self) -> list[Path]:
        return sorted(p for p in self.inbox.iterdir() if p.is_file())

    def claim(self, path: Path) -> Path | None:
        """Atomically move inbox/x to processing/x; None if someone else got it first."""
        target = self.processing / path.name
        try:
            os.rename(path, target)
        except FileNotFoundError:
            return None
        return target


@dataclass
class Stats:
    done: int = 0
    inserted: int = 0
    duplicates: int = 0
    errors: int = 0


def consume(queue: Queue, db: Path) -> Stats:
    stats = Stats()
    con = sqlite3.connect(db, timeout=60)
    try:
        con.execute(SCHEMA)
        con.commit()
        while True:
            batch = queue.pending()
            if not batch:
                break
            for path in batch:
                claimed = queue.claim(path)
                if claimed is None:
                    continue
                try:
                    msg = Message.from_bytes(claimed.read_bytes())
                except Rejected as rej:
                    os.rename(claimed, queue.error / claimed.name)
                    stats.errors += 1
                    print(f"error {claimed.name}: {rej.reason}", file=sys.stderr)
                    continue
                now = datetime.now(timezone.utc).isoformat(timespec="seconds")
                with con:  # commit before the file leaves processing/
                    cur = con.execute(
                        "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) "
                        "VALUES (?, ?, ?, ?, ?) ON CONFLICT(msg_id) DO NOTHING",
                        (_bindable(msg.msg_id), _bindable(msg.order_no),
                         _bindable(msg.seq), _bindable(msg.amount), now),
                    )
                if cur.rowcount == 1:
                    stats.inserted += 1
                else:
                    stats.duplicates += 1
                os.rename(claimed, queue.done / claimed.name)
                stats.done += 1
    finally:
        con.close()
    return stats


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=Path("/root/q"), help="queue root (default /root/q)")
    ap.add_argument("--db", type=Path, default=None, help="ledger (default ROOT/ledger.db)")
    args = ap.parse_args(argv)
    queue = Queue(args.root)
    queue.ensure()
    stats = consume(queue, args.db or args.root / "ledger.db")
    print(f"done={stats.done} (inserted={stats.inserted} duplicates={stats.duplicates}) error={stats.errors}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
