"""Shared pieces of the queue lab: paths, message validation, the ledger.

consume.py and report.py both import this, so "what counts as a valid message" is
defined exactly once.
"""
from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

QUEUE_ROOT = Path("/root/q")
QUEUE_DIRS = ("inbox", "processing", "done", "error")
REQUIRED_FIELDS = ("msg_id", "order_no", "seq", "amount")

LEDGER_DDL = """
CREATE TABLE IF NOT EXISTS processed (
    msg_id        TEXT    NOT NULL UNIQUE,
    order_no      TEXT    NOT NULL,
    seq           INTEGER NOT NULL,
    amount                NOT NULL,   -- no declared type: kept exactly as the JSON number
    processed_at  TEXT    NOT NULL
)
"""


@dataclass(frozen=True)
class Verdict:
    message: dict[str, Any] | None
    reason: str | None  # None when valid, else "parse" or "missing-field"

    @property
    def ok(self) -> bool:
        return self.reason is None


def classify(raw: bytes) -> Verdict:
    """Decide what a message file is. Null counts as missing; 0, "" and false are values."""
    try:
        doc = json.loads(raw.decode("utf-8-sig"))  # tolerate a BOM from Windows editors
    except (ValueError, RecursionError):
        # ValueError covers JSONDecodeError, UnicodeDecodeError and the int-digits limit
        return Verdict(None, "parse")
    if not isinstance(doc, dict):
        return Verdict(None, "parse")
    if any(doc.get(f) is None for f in REQUIRED_FIELDS):
        return Verdict(None, "missing-field")
    return Verdict(doc, None)


def natural_key(name: str) -> list[Any]:
    """msg-2 before msg-10."""
    return [int(tok) if i % 2 else tok for i, tok in enumerate(re.split(r"(\d+)", name))]


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def connect(db_path: Path) -> sqlite3.Connection:
    con = sqlite3.connect(db_path, timeout=30)
    con.execute(LEDGER_DDL)
    con.commit()
    return con
