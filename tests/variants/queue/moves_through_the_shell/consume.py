#!/usr/bin/env python3
"""Step 3: consume the directory queue /root/q one file at a time.

inbox/ -> processing/ -> done/ (stored in ledger.db) or error/ (can never be processed).
Prints one line per file: `done NAME`, `duplicate MSG_ID NAME` or `error REASON NAME`.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from datetime import datetime, timezone
from pathlib import Path

Q = Path(os.environ.get("LAB_ROOT", "/root")) / "q"
INBOX, PROCESSING, DONE, ERROR = (Q / d for d in ("inbox", "processing", "done", "error"))
REQUIRED = ("msg_id", "order_no", "seq", "amount")

# msg_id PRIMARY KEY: the database, not our code, refuses a second copy of a message.
# An "if not exists" check in Python breaks as soon as two consumers run at once.
SCHEMA = """
CREATE TABLE IF NOT EXISTS processed (
    msg_id       TEXT PRIMARY KEY,
    order_no     TEXT    NOT NULL,
    seq          INTEGER NOT NULL,
    amount       INTEGER NOT NULL,
    processed_at TEXT    NOT NULL
)"""
INSERT = """
INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (msg_id) DO NOTHING"""


def claim(name: str) -> Path | None:
    """Move inbox/NAME into processing/ before reading it.

    rename(2) is atomic: when two consumers race for one file exactly one wins,
    the other gets FileNotFoundError and simply moves on.
    """
    if os.system(f"mv {INBOX}/{name} {PROCESSING}/ 2>/dev/null") != 0:
        return None  # gone: the other consumer took it
    return PROCESSING / name


def parse(path: Path) -> tuple[dict[str, object] | None, str]:
    """The message, or None and the reason it can never be processed."""
    try:
        message = json.loads(path.read_bytes())
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None, "parse"
    if not isinstance(message, dict):
        return None, "parse"
    if any(message.get(field) is None for field in REQUIRED):
        return None, "missing-field"
    return message, ""


def main() -> int:
    db = sqlite3.connect(Q / "ledger.db", timeout=30)  # wait for the other consumer's lock
    db.execute(SCHEMA)
    for name in sorted(os.listdir(INBOX)):
        path = claim(name)
        if path is None:
            continue  # another consumer got it first
        message, reason = parse(path)
        if message is None:
            # Poison: it will fail the same way every time, so isolate it. Sending it back
            # to inbox/ would loop forever and block the messages behind it.
            os.rename(path, ERROR / name)
            print(f"error {reason} {name}")
            continue
        now = datetime.now(timezone.utc).isoformat()
        row = (message["msg_id"], message["order_no"], message["seq"], message["amount"], now)
        with db:  # commit the row before the file leaves processing/
            inserted = db.execute(INSERT, row).rowcount == 1
        os.rename(path, DONE / name)
        print(f"done {name}" if inserted else f"duplicate {message['msg_id']} {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
