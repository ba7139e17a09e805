#!/usr/bin/env python3
"""Queue consumer (step 3). Writes dup.txt and error.csv itself (steps 4 and 5)."""

import json
import os
import sqlite3
import sys

Q = os.path.join(os.environ.get("LAB_ROOT", "/root"), "q")
DB = os.path.join(Q, "ledger.db")
NEEDED = ("msg_id", "order_no", "seq", "amount")


def connect():
    con = sqlite3.connect(DB, timeout=30, isolation_level=None)
    con.execute(
        "CREATE TABLE IF NOT EXISTS processed ("
        "msg_id TEXT NOT NULL, order_no TEXT NOT NULL, seq INTEGER NOT NULL, amount NUMERIC NOT NULL, "
        "processed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), "
        "CONSTRAINT processed_msg UNIQUE (msg_id))"
    )
    return con


def classify(path):
    try:
        with open(path, encoding="utf-8") as fh:
            body = json.loads(fh.read())
    except (OSError, ValueError):
        return None, "parse"
    if type(body) is not dict:
        return None, "parse"
    if any(body.get(k) is None for k in NEEDED):
        return None, "missing-field"
    return body, None


def store(body):
    """True when the row is new; the UNIQUE constraint decides, not this code."""
    con = connect()
    try:
        con.execute(
            "INSERT INTO processed (msg_id, order_no, seq, amount) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (msg_id) DO NOTHING",
            (body["msg_id"], body["order_no"], body["seq"], body["amount"]),
        )
        return con.execute("SELECT changes()").fetchone()[0] == 1
    finally:
        con.close()


def merge_report(path, header, rows):
    """Keep what earlier runs wrote; Excel wants the BOM and CRLF."""
    old = []
    if os.path.exists(path):
        with open(path, encoding="utf-8-sig") as fh:
            old = [line.rstrip("\r\n") for line in fh if line.strip()]
        if header and old and old[0] == header:
            old = old[1:]
    lines = sorted(set(old) | set(rows))
    with open(path, "w", encoding="utf-8-sig", newline="\r\n") as fh:
        if header:
            fh.write(header + "\n")
        for line in lines:
            fh.write(line + "\n")


def main():
    connect().close()
    dups, errors = [], []
    with os.scandir(os.path.join(Q, "inbox")) as it:
        names = sorted(e.name for e in it if e.is_file())
    for name in names:
        claimed = os.path.join(Q, "processing", name)
        try:
            os.rename(os.path.join(Q, "inbox", name), claimed)
        except FileNotFoundError:
            continue
        body, why = classify(claimed)
        if body is None:
            os.rename(claimed, os.path.join(Q, "error", name))
            errors.append(f"{name},{why}")
            continue
        if not store(body):
            dups.append(str(body["msg_id"]))
        os.rename(claimed, os.path.join(Q, "done", name))
    merge_report(os.path.join(Q, "dup.txt"), None, dups)
    merge_report(os.path.join(Q, "error.csv"), "file,reason", errors)
    print(f"{len(names)} files, {len(dups)} duplicates, {len(errors)} errors", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
