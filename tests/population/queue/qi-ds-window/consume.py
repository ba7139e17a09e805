"""consume.py - drain /root/q/inbox into the ledger.

Pure standard library (no pandas on the lab box).  Each file is claimed by renaming it
into processing/, then read, then validated, then recorded and moved to done/ or error/.
"""
import json
import os
import sqlite3
import time
from datetime import datetime, timezone

QUEUE = "/root/q"
DB_PATH = os.path.join(QUEUE, "ledger.db")
REQUIRED = ["msg_id", "order_no", "seq", "amount"]

DDL = """
CREATE TABLE IF NOT EXISTS processed (
    msg_id       TEXT    NOT NULL,
    order_no     TEXT    NOT NULL,
    seq          INTEGER NOT NULL,
    amount       NUMERIC NOT NULL,
    currency     TEXT,
    created_at   TEXT,
    processed_at TEXT    NOT NULL,
    source_file  TEXT,
    CONSTRAINT uq_processed_msg UNIQUE (msg_id)
)
"""


def classify(raw: bytes):
    """Return (record, None) for a good message, (None, reason) otherwise."""
    try:
        obj = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None, "parse"
    if not isinstance(obj, dict):
        return None, "parse"
    missing = [k for k in REQUIRED if obj.get(k) is None]
    if missing:
        return None, "missing-field"
    return obj, None


def main() -> int:
    con = sqlite3.connect(DB_PATH, timeout=60)
    with con:
        con.execute(DDL)
    stats = {"done": 0, "error": 0, "dup": 0}
    inbox = os.path.join(QUEUE, "inbox")
    for entry in sorted(os.scandir(inbox), key=lambda e: e.name):
        if not entry.is_file(follow_symlinks=False):
            continue
        work = os.path.join(QUEUE, "processing", entry.name)
        try:
            os.rename(entry.path, work)
        except FileNotFoundError:  # claimed by a concurrent consumer
            continue
        with open(work, "rb") as fh:
            raw = fh.read()
        rec, reason = classify(raw)
        if reason:
            os.rename(work, os.path.join(QUEUE, "error", entry.name))
            stats["error"] += 1
            continue
        with con:  # one transaction per message
            cur = con.execute(
                "INSERT INTO processed (msg_id, order_no, seq, amount, currency, created_at,"
                " processed_at, source_file) VALUES (?,?,?,?,?,?,?,?)"
                " ON CONFLICT(msg_id) DO NOTHING",
                (rec["msg_id"], rec["order_no"], rec["seq"], rec["amount"],
                 rec.get("currency"), rec.get("created_at"),
                 datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                 entry.name),
            )
        stats["done" if cur.rowcount == 1 else "dup"] += 1
        os.rename(work, os.path.join(QUEUE, "done", entry.name))
    con.close()
    print(" ".join(f"{k}={v}" for k, v in stats.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
