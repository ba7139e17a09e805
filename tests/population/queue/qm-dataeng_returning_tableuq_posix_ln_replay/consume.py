#!/usr/bin/env python3
"""Directory-queue consumer for the EAI queue lab.

Flow per file: claim (rename inbox -> processing), read, validate,
then either error/ or ledger insert + done/.

Idempotency lives in the table: CONSTRAINT processed_msg_id_uq UNIQUE (msg_id)
plus INSERT ... ON CONFLICT (msg_id) DO NOTHING RETURNING msg_id.
RETURNING gives back a row only when the insert actually happened, so "no row"
means the msg_id was already in the ledger (duplicate delivery).

Files are taken oldest-first by mtime (arrival order), ties broken by name.
"""
import json
import logging
import os
import sqlite3
import sys

QUEUE = "/root/q"
DB_PATH = os.path.join(QUEUE, "ledger.db")
REQUIRED = ("msg_id", "order_no", "seq", "amount")

DDL = """
CREATE TABLE IF NOT EXISTS processed (
    msg_id       TEXT NOT NULL,
    order_no     TEXT,
    seq          INTEGER,
    amount       NUMERIC,
    processed_at TEXT NOT NULL,
    CONSTRAINT processed_msg_id_uq UNIQUE (msg_id)
)
"""

INSERT = """
INSERT INTO processed (msg_id, order_no, seq, amount, processed_at)
VALUES (:msg_id, :order_no, :seq, :amount, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
ON CONFLICT (msg_id) DO NOTHING
RETURNING msg_id
"""

log = logging.getLogger("consume")


def q(sub, name=""):
    return os.path.join(QUEUE, sub, name)


def arrival_order():
    """inbox file names, oldest mtime first. Files vanishing under us are skipped."""
    entries = []
    with os.scandir(q("inbox")) as it:
        for e in it:
            try:
                if e.is_file(follow_symlinks=False):
                    entries.append((e.stat(follow_symlinks=False).st_mtime_ns, e.name))
            except FileNotFoundError:
                pass
    return [name for _, name in sorted(entries)]


def classify(raw: bytes):
    """Return (message, None) for a usable message, (None, reason) otherwise."""
    try:
        message = json.loads(raw)
    except ValueError:  # JSONDecodeError and UnicodeDecodeError are both ValueErrors
        return None, "parse"
    if not isinstance(message, dict):
        return None, "parse"
    if any(message.get(field) is None for field in REQUIRED):
        return None, "missing-field"
    return message, None


def bindable(value):
    return json.dumps(value, ensure_ascii=False) if isinstance(value, (dict, list)) else value


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr)
    for sub in ("inbox", "processing", "done", "error"):
        os.makedirs(q(sub), exist_ok=True)

    conn = sqlite3.connect(DB_PATH, timeout=30)
    with conn:
        conn.execute(DDL)

    stats = {"inserted": 0, "duplicate": 0, "error": 0, "lost-race": 0}
    for name in arrival_order():
        claimed = q("processing", name)
        try:
            os.rename(q("inbox", name), claimed)
        except FileNotFoundError:
            stats["lost-race"] += 1  # another consumer claimed it first
            continue

        with open(claimed, "rb") as fh:
            message, reason = classify(fh.read())

        if reason is not None:
            os.rename(claimed, q("error", name))
            stats["error"] += 1
            log.warning("error file=%s reason=%s", name, reason)
            continue

        params = {field: bindable(message[field]) for field in REQUIRED}
        with conn:  # commits on success, rolls back on exception
            inserted = conn.execute(INSERT, params).fetchall()
        os.rename(claimed, q("done", name))
        if inserted:
            stats["inserted"] += 1
            log.info("done file=%s msg_id=%s", name, message["msg_id"])
        else:
            stats["duplicate"] += 1
            log.info("duplicate file=%s msg_id=%s", name, message["msg_id"])

    conn.close()
    log.info("summary %s", " ".join(f"{k}={v}" for k, v in stats.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
