#!/usr/bin/env python3
"""Step 3 consumer. Claim = rename into processing/; dedup = PRIMARY KEY + ON CONFLICT."""

import json
import os
import sqlite3
from pathlib import Path

ROOT = Path(os.environ.get("LAB_ROOT") or "/root") / "q"
INBOX = ROOT / "inbox"
PROCESSING = ROOT / "processing"
DONE = ROOT / "done"
ERROR = ROOT / "error"
FIELDS = ("msg_id", "order_no", "seq", "amount")


def connect():
    conn = sqlite3.connect(ROOT / "ledger.db", isolation_level=None)
    conn.execute("PRAGMA busy_timeout = 20000")
    conn.execute(
        "CREATE TABLE IF NOT EXISTS processed ("
        " msg_id TEXT NOT NULL,"
        " order_no TEXT NOT NULL,"
        " seq INTEGER NOT NULL,"
        " amount INTEGER NOT NULL,"
        " processed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),"
        " PRIMARY KEY (msg_id))"
    )
    return conn


def insert(conn, msg):
    """True if the row went in, False if this msg_id was stored before."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(
            "INSERT INTO processed (msg_id, order_no, seq, amount) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (msg_id) DO NOTHING",
            (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"]),
        )
        added = conn.execute("SELECT changes()").fetchone()[0]
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return added == 1


def check(raw):
    try:
        msg = json.loads(raw)
    except ValueError:
        return None, "parse"
    if type(msg) is not dict:
        return None, "parse"
    if any(msg.get(f) is None for f in FIELDS):
        return None, "missing-field"
    return msg, None


def note_error(name, reason):
    path = ROOT / "error.csv"
    new = not path.exists()
    with path.open("a", encoding="utf-8") as f:
        if new:
            f.write("file,reason\n")
        f.write(f"{name},{reason}\n")


def note_duplicate(msg_id):
    with (ROOT / "dup.txt").open("a", encoding="utf-8") as f:
        f.write(f"{msg_id}\n")


def tidy_dup_txt():
    path = ROOT / "dup.txt"
    ids = sorted(set(path.read_text(encoding="utf-8").split())) if path.exists() else []
    path.write_text("".join(f"{i}\n" for i in ids), encoding="utf-8")


def main():
    conn = connect()
    for src in sorted(INBOX.glob("*.json")):
        mine = PROCESSING / src.name
        try:
            os.replace(src, mine)
        except FileNotFoundError:
            continue  # lost the race for this file
        msg, reason = check(mine.read_bytes())
        if reason:
            os.replace(mine, ERROR / src.name)
            note_error(src.name, reason)
            print(f"{src.name}: {reason} -> error/")
            continue
        if insert(conn, msg):
            print(f"{src.name}: stored")
        else:
            note_duplicate(msg["msg_id"])
            print(f"{src.name}: {msg['msg_id']} already stored")
        os.replace(mine, DONE / src.name)
    tidy_dup_txt()


if __name__ == "__main__":
    main()
