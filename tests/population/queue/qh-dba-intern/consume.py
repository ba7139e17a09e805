#!/usr/bin/env python3
"""consume.py -- directory-queue consumer. The database, not this script, de-duplicates.

    inbox/ --rename--> processing/ --read+validate--> ledger.db --rename--> done/
                                               \----------------------> error/  (never back to inbox)

Design notes (DBA habits):
  * processed keeps a surrogate key (id) and a UNIQUE INDEX on msg_id -- the index is the
    idempotency guarantee. INSERT ... ON CONFLICT (msg_id) DO NOTHING RETURNING id tells us
    in the same statement whether the row was new.
  * processed_at is filled by a column DEFAULT, so every writer gets the same format.
  * ignored duplicates go to dup_log and rejected files to rejected, so dup.txt and
    error.csv are plain SELECTs afterwards.
  * WAL + busy_timeout + BEGIN IMMEDIATE so two consumers queue up on the write lock
    instead of failing.
"""
import json
import os
import sqlite3
import sys
import time

QUEUE = "/root/q"
INBOX = os.path.join(QUEUE, "inbox")
PROCESSING = os.path.join(QUEUE, "processing")
DONE = os.path.join(QUEUE, "done")
ERROR = os.path.join(QUEUE, "error")
LEDGER = os.path.join(QUEUE, "ledger.db")

REQUIRED = ("msg_id", "order_no", "seq", "amount")

DDL = """
CREATE TABLE IF NOT EXISTS processed (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    msg_id        TEXT    NOT NULL,
    order_no      TEXT    NOT NULL,
    seq           INTEGER NOT NULL,
    amount        NUMERIC NOT NULL,
    currency      TEXT,
    source_file   TEXT,
    processed_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE UNIQUE INDEX IF NOT EXISTS ux_processed_msg_id ON processed (msg_id);

CREATE TABLE IF NOT EXISTS dup_log (
    msg_id   TEXT NOT NULL,
    file     TEXT NOT NULL,
    seen_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE IF NOT EXISTS rejected (
    file         TEXT PRIMARY KEY,
    reason       TEXT NOT NULL CHECK (reason IN ('parse', 'missing-field')),
    rejected_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
"""

INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1


def bindable(value):
    """SQLite INTEGER is 64-bit: hand larger ints over as text (NUMERIC affinity turns that
    into REAL) and nested JSON as its JSON text, instead of crashing the consumer."""
    if isinstance(value, int) and not isinstance(value, bool) and not INT64_MIN <= value <= INT64_MAX:
        return str(value)
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return value


def connect():
    con = sqlite3.connect(LEDGER, timeout=30, isolation_level=None)  # explicit transactions
    con.execute("PRAGMA busy_timeout = 30000")
    for _ in range(100):  # switching to WAL needs a moment alone with the file
        try:
            con.execute("PRAGMA journal_mode = WAL")
            break
        except sqlite3.OperationalError:
            time.sleep(0.05)
    con.executescript(DDL)
    return con


def classify(raw):
    """Return (document, None) for a valid message, (None, reason) otherwise."""
    try:
        doc = json.loads(raw)  # bytes in: json detects the encoding; bad UTF-8 is a ValueError
    except (ValueError, RecursionError):
        return None, "parse"
    if not isinstance(doc, dict):
        return None, "parse"
    if any(doc.get(field) is None for field in REQUIRED):  # absent or null; 0 and "" are values
        return None, "missing-field"
    return doc, None


def record(con, doc, name):
    con.execute("BEGIN IMMEDIATE")
    try:
        new = con.execute(
            """INSERT INTO processed (msg_id, order_no, seq, amount, currency, source_file)
               VALUES (?, ?, ?, ?, ?, ?)
               ON CONFLICT (msg_id) DO NOTHING
               RETURNING id""",
            tuple(bindable(doc.get(c)) for c in ("msg_id", "order_no", "seq", "amount", "currency")) + (name,),
        ).fetchone()
        if new is None:
            con.execute("INSERT INTO dup_log (msg_id, file) VALUES (?, ?)", (bindable(doc["msg_id"]), name))
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def reject(con, name, reason):
    con.execute(
        """INSERT INTO rejected (file, reason) VALUES (?, ?)
           ON CONFLICT (file) DO UPDATE SET reason = excluded.reason,
                                            rejected_at = excluded.rejected_at""",
        (name, reason),
    )


def main():
    for d in (INBOX, PROCESSING, DONE, ERROR):
        os.makedirs(d, exist_ok=True)
    con = connect()
    stats = {"done": 0, "error": 0, "claimed_by_other": 0}

    for name in sorted(os.listdir(INBOX)):
        src = os.path.join(INBOX, name)
        if not os.path.isfile(src):
            continue
        work = os.path.join(PROCESSING, name)
        try:
            os.rename(src, work)  # the claim; only one consumer can win it
        except FileNotFoundError:
            stats["claimed_by_other"] += 1
            continue

        with open(work, "rb") as fh:
            raw = fh.read()
        doc, reason = classify(raw)
        if reason:
            reject(con, name, reason)
            os.rename(work, os.path.join(ERROR, name))
            stats["error"] += 1
            continue

        record(con, doc, name)  # committed before the file leaves processing/
        os.rename(work, os.path.join(DONE, name))
        stats["done"] += 1

    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    print("consume: done=%(done)d error=%(error)d claimed_by_other=%(claimed_by_other)d" % stats,
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
