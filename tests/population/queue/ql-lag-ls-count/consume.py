#!/usr/bin/env python3
"""file queue consumer (pathlib 버전)"""
import json
import sqlite3
import sys
from datetime import datetime, timezone
from pathlib import Path

Q = Path("/root/q")
INBOX, PROC, DONE, ERR = (Q / d for d in ("inbox", "processing", "done", "error"))
REQUIRED = ("msg_id", "order_no", "seq", "amount")


def reject(p: Path, why: str):
    p.rename(ERR / p.name)
    print(f"reject {p.name} {why}")


def main() -> int:
    for d in (INBOX, PROC, DONE, ERR):
        d.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(Q / "ledger.db", timeout=30)
    db.execute("""
        CREATE TABLE IF NOT EXISTS processed (
            msg_id       VARCHAR NOT NULL,
            order_no     VARCHAR NOT NULL,
            seq          INT NOT NULL,
            amount       DECIMAL NOT NULL,
            processed_at DATETIME NOT NULL,
            CONSTRAINT pk_processed PRIMARY KEY (msg_id)
        )""")
    db.commit()

    for f in sorted(INBOX.iterdir()):
        if not f.is_file():
            continue
        work = PROC / f.name
        try:
            f.rename(work)           # claim
        except FileNotFoundError:
            continue
        try:
            msg = json.loads(work.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError):
            reject(work, "parse")
            continue
        if not isinstance(msg, dict):
            reject(work, "parse")
            continue
        if any(msg.get(k) is None for k in REQUIRED):
            reject(work, "missing-field")
            continue
        db.execute(
            "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) "
            "VALUES (:msg_id, :order_no, :seq, :amount, :ts) ON CONFLICT(msg_id) DO NOTHING",
            {**{k: msg[k] for k in REQUIRED}, "ts": datetime.now(timezone.utc).isoformat()})
        new = db.execute("SELECT changes()").fetchone()[0]
        db.commit()
        print(f"{'insert' if new else 'dup'} {f.name} {msg['msg_id']}")
        work.rename(DONE / f.name)
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
