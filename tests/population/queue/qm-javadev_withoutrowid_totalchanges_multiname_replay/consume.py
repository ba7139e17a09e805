#!/usr/bin/env python3
"""QueueConsumer: drains /root/q/inbox through processing/ into done/ or error/."""
from __future__ import annotations

import json
import sqlite3
import sys
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Optional

QUEUE_ROOT = Path("/root/q")
REQUIRED_FIELDS = ("msg_id", "order_no", "seq", "amount")


class Outcome(Enum):
    INSERTED = "inserted"
    DUPLICATE = "duplicate"
    PARSE = "parse"
    MISSING_FIELD = "missing-field"


@dataclass
class Message:
    msg_id: Any
    order_no: Any
    seq: Any
    amount: Any

    @staticmethod
    def from_bytes(raw: bytes) -> tuple[Optional["Message"], Optional[Outcome]]:
        try:
            payload = json.loads(raw)
        except ValueError:  # covers JSONDecodeError and UnicodeDecodeError
            return None, Outcome.PARSE
        if not isinstance(payload, dict):
            return None, Outcome.PARSE
        for field in REQUIRED_FIELDS:
            if payload.get(field) is None:
                return None, Outcome.MISSING_FIELD
        return Message(*(payload[f] for f in REQUIRED_FIELDS)), None


class Ledger:
    """processed table. msg_id is the PRIMARY KEY of a WITHOUT ROWID table,
    processed_at is filled by the column DEFAULT."""

    DDL = """
        CREATE TABLE IF NOT EXISTS processed (
            msg_id        VARCHAR(64)    NOT NULL PRIMARY KEY,
            order_no      VARCHAR(32)    NOT NULL,
            seq           INT            NOT NULL,
            amount        DECIMAL(18, 2) NOT NULL,
            processed_at  TIMESTAMP      NOT NULL DEFAULT CURRENT_TIMESTAMP
        ) WITHOUT ROWID
    """

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(str(path), timeout=30.0)
        with self.conn:
            self.conn.execute(self.DDL)

    @staticmethod
    def _bind(value: Any) -> Any:
        return json.dumps(value, ensure_ascii=False) if isinstance(value, (dict, list)) else value

    def insert(self, msg: Message) -> bool:
        """True when a new row went in; False when msg_id was already recorded."""
        before = self.conn.total_changes
        with self.conn:
            self.conn.execute(
                "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount) VALUES (?, ?, ?, ?)",
                tuple(self._bind(v) for v in (msg.msg_id, msg.order_no, msg.seq, msg.amount)),
            )
        return self.conn.total_changes > before

    def close(self) -> None:
        self.conn.close()


class QueueConsumer:
    def __init__(self, root: Path) -> None:
        self.inbox = root / "inbox"
        self.processing = root / "processing"
        self.done = root / "done"
        self.error = root / "error"
        for d in (self.inbox, self.processing, self.done, self.error):
            d.mkdir(parents=True, exist_ok=True)
        self.ledger = Ledger(root / "ledger.db")
        self.counts: dict[Outcome, int] = {o: 0 for o in Outcome}

    def claim(self, candidate: Path) -> Optional[Path]:
        target = self.processing / candidate.name
        try:
            candidate.rename(target)  # atomic on one filesystem: only one consumer wins
        except FileNotFoundError:
            return None
        return target

    def handle(self, claimed: Path) -> Outcome:
        msg, failure = Message.from_bytes(claimed.read_bytes())
        if failure is not None:
            claimed.rename(self.error / claimed.name)
            return failure
        outcome = Outcome.INSERTED if self.ledger.insert(msg) else Outcome.DUPLICATE
        claimed.rename(self.done / claimed.name)
        return outcome

    def run(self) -> int:
        for candidate in sorted(self.inbox.iterdir()):
            if not candidate.is_file():
                continue
            claimed = self.claim(candidate)
            if claimed is None:
                continue
            outcome = self.handle(claimed)
            self.counts[outcome] += 1
            print(f"{candidate.name}\t{outcome.value}")
        self.ledger.close()
        print("summary: " + ", ".join(f"{o.value}={n}" for o, n in self.counts.items()), file=sys.stderr)
        return 0


if __name__ == "__main__":
    sys.exit(QueueConsumer(QUEUE_ROOT).run())
