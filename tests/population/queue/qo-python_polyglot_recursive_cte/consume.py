#!/usr/bin/env python3
"""File-queue consumer.

    inbox/ --(rename)--> processing/ --> done/    valid (new or duplicate)
                                     \-> error/   parse / missing-field

Idempotency is the PRIMARY KEY on processed.msg_id: duplicates are rejected by the
database (ON CONFLICT DO NOTHING), never by an "if seen" check in Python.

After the run it rewrites
    dup.txt    msg_ids ignored as duplicates during this run, ascending
    error.csv  file,reason for every file now in error/
QUEUE_HOME overrides /root/q (handy for experiments).
"""
import csv
import json
import os
import sqlite3
from pathlib import Path

HOME = Path(os.environ.get("QUEUE_HOME", "/root/q"))
INBOX, PROCESSING, DONE, ERROR = (HOME / d for d in ("inbox", "processing", "done", "error"))
LEDGER = HOME / "ledger.db"
REQUIRED = ("msg_id", "order_no", "seq", "amount")


def open_ledger() -> sqlite3.Connection:
    con = sqlite3.connect(LEDGER, timeout=60)
    con.execute(
        """
        CREATE TABLE IF NOT EXISTS processed (
            msg_id       TEXT    NOT NULL,
            order_no     TEXT    NOT NULL,
            seq          INTEGER NOT NULL,
            amount       NUMERIC NOT NULL,
            processed_at TEXT    NOT NULL
                         DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
            PRIMARY KEY (msg_id)
        )
        """
    )
    con.commit()
    return con


def reason_for(data: bytes):
    """None when the message is usable, else 'parse' or 'missing-field'."""
    try:
        message = json.loads(data)
    except ValueError:  # JSONDecodeError and UnicodeDecodeError are both ValueErrors
        return "parse", None
    if not isinstance(message, dict):
        return "parse", None
    if any(message.get(field) is None for field in REQUIRED):
        return "missing-field", None
    return None, message


def sql_value(value):
    return json.dumps(value, ensure_ascii=False) if isinstance(value, (dict, list)) else value


def claim(path: Path):
    """Move one inbox file into processing/; None if someone else got it first."""
    target = PROCESSING / path.name
    try:
        path.rename(target)
    except FileNotFoundError:
        return None
    return target


def consume(con: sqlite3.Connection) -> list:
    duplicates = []
    while True:
        candidates = sorted(p for p in INBOX.iterdir() if p.is_file())
        if not candidates:
            return duplicates
        for candidate in candidates:
            work = claim(candidate)
            if work is None:
                continue
            reason, message = reason_for(work.read_bytes())
            if reason:
                work.replace(ERROR / work.name)
                print(f"{work.name}: {reason}")
                continue
            with con:  # one transaction per message
                inserted = con.execute(
                    "INSERT INTO processed (msg_id, order_no, seq, amount) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT DO NOTHING",
                    [sql_value(message[f]) for f in REQUIRED],
                ).rowcount
            work.replace(DONE / work.name)
            if inserted:
                print(f"{work.name}: stored {message['msg_id']}")
            else:
                duplicates.append(str(sql_value(message["msg_id"])))
                print(f"{work.name}: duplicate {message['msg_id']}")


def write_reports(duplicates: list) -> None:
    (HOME / "dup.txt").write_text("".join(f"{d}\n" for d in sorted(set(duplicates))), encoding="utf-8")
    with open(HOME / "error.csv", "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["file", "reason"])
        for path in sorted(p for p in ERROR.iterdir() if p.is_file()):
            reason, _ = reason_for(path.read_bytes())
            out.writerow([path.name, reason or "unknown"])


def main() -> None:
    con = open_ledger()
    try:
        duplicates = consume(con)
    finally:
        con.close()
    write_reports(duplicates)


if __name__ == "__main__":
    main()
