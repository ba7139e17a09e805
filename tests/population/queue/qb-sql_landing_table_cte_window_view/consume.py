#!/usr/bin/env python3
"""File-queue consumer (lab: queue).

Pipeline, the way I'd build it in a warehouse:
  inbox/ --rename--> processing/ --parse/validate--> landing (raw, every valid message, dups included)
                                                  \-> processed (msg_id PRIMARY KEY => dedup by constraint)
  bad input -> rejects (file, reason) + error/
"""
import json
import os
import sqlite3
import sys
from datetime import datetime, timezone

ROOT = os.path.join(os.environ.get("LAB_ROOT", "/root"), "q")
INBOX, PROCESSING, DONE, ERROR = (os.path.join(ROOT, d) for d in ("inbox", "processing", "done", "error"))
DB = os.path.join(ROOT, "ledger.db")
REQUIRED = ("msg_id", "order_no", "seq", "amount")

DDL = """
CREATE TABLE IF NOT EXISTS processed (
    msg_id       TEXT    NOT NULL PRIMARY KEY,
    order_no     TEXT    NOT NULL,
    seq          INTEGER NOT NULL,
    amount       NUMERIC NOT NULL,
    currency     TEXT,
    created_at   TEXT,
    src_file     TEXT    NOT NULL,
    processed_at TEXT    NOT NULL CHECK (length(processed_at) > 0)
);
CREATE INDEX IF NOT EXISTS ix_processed_order_seq ON processed (order_no, seq);

-- raw landing zone: one row per valid message received (duplicates included)
CREATE TABLE IF NOT EXISTS landing (
    landing_id  INTEGER PRIMARY KEY AUTOINCREMENT,
    msg_id      TEXT NOT NULL,
    src_file    TEXT NOT NULL,
    payload     TEXT NOT NULL,
    received_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS rejects (
    file        TEXT NOT NULL,
    reason      TEXT NOT NULL CHECK (reason IN ('parse', 'missing-field')),
    detail      TEXT,
    rejected_at TEXT NOT NULL
);

CREATE VIEW IF NOT EXISTS v_duplicates AS
    SELECT msg_id, COUNT(*) AS deliveries, COUNT(*) - 1 AS ignored
    FROM landing
    GROUP BY msg_id
    HAVING COUNT(*) > 1;
"""


def now():
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def connect():
    con = sqlite3.connect(DB, timeout=60, isolation_level=None)  # autocommit; explicit BEGIN below
    con.execute("PRAGMA busy_timeout = 60000")
    con.executescript(DDL)
    return con


def classify(raw):
    """returns (message, None) or (None, (reason, detail))"""
    try:
        msg = json.loads(raw)
    except (UnicodeDecodeError, ValueError) as exc:
        return None, ("parse", str(exc)[:200])
    if not isinstance(msg, dict):
        return None, ("parse", "not a JSON object: %s" % type(msg).__name__)
    missing = [f for f in REQUIRED if msg.get(f) is None]
    if missing:
        return None, ("missing-field", ",".join(missing))
    return msg, None


def handle(con, name):
    src = os.path.join(INBOX, name)
    claimed = os.path.join(PROCESSING, name)
    try:
        os.rename(src, claimed)          # the claim: only one consumer wins the rename
    except FileNotFoundError:
        return "lost"                    # another consumer took it
    with open(claimed, "rb") as fh:
        raw = fh.read()
    msg, problem = classify(raw)
    ts = now()
    con.execute("BEGIN IMMEDIATE")
    try:
        if problem:
            con.execute("INSERT INTO rejects (file, reason, detail, rejected_at) VALUES (?, ?, ?, ?)",
                        (name, problem[0], problem[1], ts))
        else:
            con.execute("INSERT INTO landing (msg_id, src_file, payload, received_at) VALUES (?, ?, ?, ?)",
                        (msg["msg_id"], name, raw.decode("utf-8", "replace"), ts))
            con.execute("""INSERT INTO processed (msg_id, order_no, seq, amount, currency, created_at, src_file, processed_at)
                           VALUES (:msg_id, :order_no, :seq, :amount, :currency, :created_at, :src_file, :ts)
                           ON CONFLICT (msg_id) DO NOTHING""",
                        {"msg_id": msg["msg_id"], "order_no": msg["order_no"], "seq": msg["seq"],
                         "amount": msg["amount"], "currency": msg.get("currency"),
                         "created_at": msg.get("created_at"), "src_file": name, "ts": ts})
        con.execute("COMMIT")
    except Exception:
        con.execute("ROLLBACK")
        raise
    os.rename(claimed, os.path.join(ERROR if problem else DONE, name))
    return problem[0] if problem else "ok"


def main():
    for d in (INBOX, PROCESSING, DONE, ERROR):
        os.makedirs(d, exist_ok=True)
    con = connect()
    stats = {}
    while True:
        batch = sorted(n for n in os.listdir(INBOX) if os.path.isfile(os.path.join(INBOX, n)))
        if not batch:
            break
        for name in batch:
            r = handle(con, name)
            stats[r] = stats.get(r, 0) + 1
    con.close()
    print("consume: " + ", ".join("%s=%d" % kv for kv in sorted(stats.items())), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
