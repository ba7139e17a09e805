#!/usr/bin/env python3
# consume.py -- 디렉터리 큐 소비자 (3단계)
import json
import logging
import os
import sqlite3
import sys
from datetime import datetime
from pathlib import Path

Q = Path(os.getenv("LAB_ROOT", "/root")) / "q"
REQUIRED_FIELDS = ("msg_id", "order_no", "seq", "amount")

logging.basicConfig(
    filename=Q / "consume.log",
    level=logging.INFO,
    format="%(asctime)s pid=%(process)d %(levelname)s %(message)s",
)
log = logging.getLogger("consume")


class Poison(Exception):
    """A message that will fail the same way every time: it goes to error/."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def load(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise Poison("parse") from exc
    if not isinstance(data, dict):
        raise Poison("parse")
    if [f for f in REQUIRED_FIELDS if data.get(f) is None]:
        raise Poison("missing-field")
    return data


def open_ledger() -> sqlite3.Connection:
    db = sqlite3.connect(Q / "ledger.db", timeout=30)
    db.executescript("""
        CREATE TABLE IF NOT EXISTS processed (
            msg_id       TEXT NOT NULL,
            order_no     TEXT NOT NULL,
            seq          INTEGER NOT NULL,
            amount       REAL NOT NULL,
            processed_at TEXT NOT NULL
        );
        CREATE UNIQUE INDEX IF NOT EXISTS processed_msg_id ON processed (msg_id);
    """)
    return db


def store(db: sqlite3.Connection, msg: dict) -> bool:
    """True when stored; False when the UNIQUE index says the msg_id is already there."""
    row = (
        msg["msg_id"],
        msg["order_no"],
        msg["seq"],
        msg["amount"],
        datetime.now().astimezone().isoformat(timespec="seconds"),
    )
    try:
        with db:
            db.execute("INSERT INTO processed VALUES (?, ?, ?, ?, ?)", row)
    except sqlite3.IntegrityError:
        return False
    return True


def main() -> int:
    inbox, processing = Q / "inbox", Q / "processing"
    db = open_ledger()
    for entry in sorted(inbox.iterdir()):
        work = processing / entry.name
        try:
            entry.rename(work)  # 선점: 먼저 옮긴 소비자만 처리한다
        except FileNotFoundError:
            continue
        try:
            msg = load(work)
        except Poison as poison:
            work.rename(Q / "error" / entry.name)
            log.warning("ERR %s %s", poison.reason, entry.name)
            continue
        if store(db, msg):
            log.info("OK %s %s", msg["msg_id"], entry.name)
        else:
            log.info("DUP %s %s", msg["msg_id"], entry.name)
        work.rename(Q / "done" / entry.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
