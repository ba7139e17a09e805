#!/usr/bin/env python3
"""consume.py — 파일 큐 소비자 (3단계)."""

import json
import logging
import os
import sqlite3
import sys
from datetime import datetime
from pathlib import Path

BASE = Path(os.getenv("LAB_ROOT", "/root")) / "q"
REQUIRED = ("msg_id", "order_no", "seq", "amount")

logging.basicConfig(stream=sys.stdout, level=logging.INFO, format="%(message)s")
log = logging.getLogger("consume")


class Ledger:
    def __init__(self, path):
        self.db = sqlite3.connect(path, timeout=20)
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS processed ("
            " msg_id TEXT PRIMARY KEY, order_no TEXT, seq INTEGER, amount INTEGER, processed_at TEXT)"
        )
        self.db.commit()

    def add(self, msg):
        cur = self.db.execute(
            "INSERT INTO processed VALUES (?, ?, ?, ?, ?) ON CONFLICT(msg_id) DO NOTHING",
            (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"], datetime.now().isoformat()),
        )
        self.db.commit()
        return cur.rowcount == 1


def check(path):
    try:
        msg = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None, "parse"
    if not isinstance(msg, dict):
        return None, "parse"
    for k in REQUIRED:
        if not msg.get(k):  # 값이 없으면 누락
            return None, "missing-field"
    return msg, None


def main():
    ledger = Ledger(BASE / "ledger.db")
    for src in sorted((BASE / "inbox").iterdir()):
        work = BASE / "processing" / src.name
        try:
            src.rename(work)
        except FileNotFoundError:
            continue
        msg, reason = check(work)
        if msg is None:
            work.rename(BASE / "error" / src.name)
            log.info("error %s %s", reason, src.name)
        elif ledger.add(msg):
            work.rename(BASE / "done" / src.name)
            log.info("done %s", src.name)
        else:
            work.rename(BASE / "done" / src.name)
            log.info("duplicate %s %s", msg["msg_id"], src.name)


if __name__ == "__main__":
    main()
