#!/usr/bin/env python3
"""consume.py -- file queue consumer.

Moves are done with mv(1) (same file system -> rename(2), atomic), as the lab hint says.
Output: one JSON object per file on stdout, e.g.
    {"file": "msg-0001.json", "result": "stored", "msg_id": "m-..."}
    {"file": "msg-0013.json", "result": "duplicate", "msg_id": "m-..."}
    {"file": "msg-0006.json", "result": "error", "reason": "parse"}
"""
import json
import os
import sqlite3
import subprocess
import sys
import time

Q = "/root/q"
INBOX = Q + "/inbox"
PROCESSING = Q + "/processing"
DONE = Q + "/done"
ERROR = Q + "/error"
REQUIRED = ("msg_id", "order_no", "seq", "amount")

SCHEMA = """
CREATE TABLE IF NOT EXISTS processed (
    msg_id       TEXT NOT NULL PRIMARY KEY ON CONFLICT IGNORE,
    order_no     TEXT NOT NULL,
    seq          INTEGER NOT NULL,
    amount       NUMERIC NOT NULL,
    currency     TEXT,
    created_at   TEXT,
    source_file  TEXT,
    payload      TEXT,
    processed_at TEXT NOT NULL CHECK (processed_at <> '')
)
"""


def mv(src, dst):
    """rename via mv; False when the source is gone (another consumer took it)."""
    r = subprocess.run(["mv", "-T", "--", src, dst], stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        if not os.path.lexists(src):
            return False
        raise RuntimeError("mv failed: " + r.stderr.strip())
    return True


def emit(**record):
    print(json.dumps(record, ensure_ascii=False), flush=True)


def oldest_first():
    entries = []
    with os.scandir(INBOX) as it:
        for e in it:
            try:
                if e.is_file(follow_symlinks=False):
                    entries.append((e.stat(follow_symlinks=False).st_mtime_ns, e.name))
            except FileNotFoundError:  # gone while listing
                pass
    return [name for _, name in sorted(entries)]


def parse(raw):
    try:
        text = raw.decode("utf-8")
        msg = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None, None, "parse"
    if not isinstance(msg, dict):
        return None, None, "parse"
    missing = [k for k in REQUIRED if msg.get(k) is None]
    if missing:
        return None, None, "missing-field"
    return msg, text, None


def cell(v):
    if v is None or isinstance(v, (str, int, float)):
        return v
    return json.dumps(v, ensure_ascii=False)  # lists / objects


def main():
    con = sqlite3.connect(Q + "/ledger.db", timeout=60)
    con.execute(SCHEMA)
    con.commit()
    while True:
        names = oldest_first()
        if not names:
            break
        for name in names:
            work = os.path.join(PROCESSING, name)
            if not mv(os.path.join(INBOX, name), work):
                continue
            with open(work, "rb") as f:
                raw = f.read()
            msg, text, reason = parse(raw)
            if reason:
                mv(work, os.path.join(ERROR, name))
                emit(file=name, result="error", reason=reason)
                continue
            cur = con.execute(
                "INSERT INTO processed (msg_id, order_no, seq, amount, currency, created_at,"
                " source_file, payload, processed_at) VALUES (?,?,?,?,?,?,?,?,?)",
                (cell(msg["msg_id"]), cell(msg["order_no"]), cell(msg["seq"]), cell(msg["amount"]),
                 cell(msg.get("currency")), cell(msg.get("created_at")), name, text,
                 time.strftime("%Y-%m-%dT%H:%M:%S%z")),
            )
            con.commit()
            mv(work, os.path.join(DONE, name))
            emit(file=name, result="stored" if cur.rowcount == 1 else "duplicate",
                 msg_id=cell(msg["msg_id"]))
    con.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
