"""qlib -- helpers shared by consume.py and qtool.py (lag / replay / report).

Everything that knows the queue layout, the message rules or the ledger lives here, so the
scripts cannot disagree with each other.
"""
import json
import os
import sqlite3
import time
from datetime import datetime, timezone

QUEUE_DIR = "/root/q"
SUBDIRS = ("inbox", "processing", "done", "error")
REQUIRED = ("msg_id", "order_no", "seq", "amount")
JOURNAL = "journal.log"            # one JSON object per line: what happened to which file

PARSE = "parse"
MISSING = "missing-field"


def path(qdir, sub, name=None):
    return os.path.join(qdir, sub) if name is None else os.path.join(qdir, sub, name)


def count_files(directory):
    """Regular files directly inside directory (no recursion, symlinks not followed)."""
    try:
        with os.scandir(directory) as it:
            return sum(1 for e in it if e.is_file(follow_symlinks=False))
    except FileNotFoundError:
        return 0


def classify(raw):
    """raw bytes -> (message dict, None) or (None, PARSE | MISSING)."""
    try:
        msg = json.loads(raw)
    except ValueError:
        return None, PARSE
    if not isinstance(msg, dict):
        return None, PARSE
    if any(msg.get(k) is None for k in REQUIRED):
        return None, MISSING
    return msg, None


def claim(qdir, name):
    """Atomically take inbox/name into processing/.  Returns the new path, or None when
    another consumer got it first."""
    dst = path(qdir, "processing", name)
    try:
        os.rename(path(qdir, "inbox", name), dst)
    except FileNotFoundError:
        return None
    return dst


def settle(qdir, name, where):
    os.rename(path(qdir, "processing", name), path(qdir, where, name))


def connect(qdir):
    con = sqlite3.connect(path(qdir, "ledger.db"), timeout=60)
    con.execute("""CREATE TABLE IF NOT EXISTS processed (
                       msg_id       TEXT NOT NULL UNIQUE,
                       order_no     TEXT NOT NULL,
                       seq          INTEGER NOT NULL,
                       amount       REAL NOT NULL,
                       processed_at TEXT NOT NULL)""")
    con.commit()
    return con


def store(con, msg):
    """INSERT OR IGNORE one message; True when the row is new."""
    cur = con.execute(
        "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at)"
        " VALUES (?, ?, ?, ?, ?)",
        (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"],
         datetime.now(timezone.utc).isoformat()))
    con.commit()
    return cur.rowcount == 1


def journal(qdir, **event):
    event["at"] = time.time()
    line = (json.dumps(event, ensure_ascii=False) + "\n").encode("utf-8")
    fd = os.open(path(qdir, JOURNAL), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)          # one write with O_APPEND: lines from two consumers never mix
    finally:
        os.close(fd)


def read_journal(qdir):
    try:
        with open(path(qdir, JOURNAL), encoding="utf-8") as fh:
            return [json.loads(l) for l in fh if l.strip()]
    except FileNotFoundError:
        return []
