#!/usr/bin/env python3
"""File-queue consumer.

Invariants (written down so I can check them like I would in Rust):
  * a file is only read after this process won the rename inbox/ -> processing/
  * every rename is followed by an fsync of both directories
  * a row is inserted inside an explicit BEGIN IMMEDIATE ... COMMIT
  * the idempotency guarantee is the PRIMARY KEY, not an if-exists check
  * any rename may lose a race (ENOENT): that is not an error, the other consumer owns it
"""
import datetime
import errno
import json
import os
import sqlite3
import sys
import tempfile

ROOT = os.path.dirname(os.path.abspath(__file__))
INBOX = os.path.join(ROOT, "inbox")
PROCESSING = os.path.join(ROOT, "processing")
DONE = os.path.join(ROOT, "done")
ERROR = os.path.join(ROOT, "error")
DB_PATH = os.path.join(ROOT, "ledger.db")
DUP_TXT = os.path.join(ROOT, "dup.txt")
ERROR_CSV = os.path.join(ROOT, "error.csv")

REQUIRED = ("msg_id", "order_no", "seq", "amount")
INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1


def fsync_dir(path: str) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def durable_rename(src_dir: str, dst_dir: str, name: str) -> bool:
    """rename(2) src_dir/name -> dst_dir/name. False if someone else got there first."""
    try:
        os.rename(os.path.join(src_dir, name), os.path.join(dst_dir, name))
    except FileNotFoundError:
        return False
    fsync_dir(dst_dir)
    fsync_dir(src_dir)
    return True


def atomic_write(path: str, data: bytes) -> None:
    d = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", dir=d)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        fsync_dir(d)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def open_db() -> sqlite3.Connection:
    # isolation_level=None: I issue BEGIN/COMMIT myself, nothing implicit.
    con = sqlite3.connect(DB_PATH, timeout=60, isolation_level=None)
    con.execute("PRAGMA busy_timeout = 60000")
    con.execute("BEGIN IMMEDIATE")
    try:
        con.execute(
            """CREATE TABLE IF NOT EXISTS processed (
                   msg_id       TEXT NOT NULL PRIMARY KEY,
                   order_no     TEXT NOT NULL,
                   seq          INTEGER NOT NULL,
                   amount       NUMERIC NOT NULL,
                   processed_at TEXT NOT NULL
               )"""
        )
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return con


def bindable(v):
    """sqlite3 can bind None/int/float/str/bytes; anything else I turn into text explicitly."""
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v if INT64_MIN <= v <= INT64_MAX else str(v)
    if isinstance(v, (float, str)):
        return v
    return json.dumps(v, ensure_ascii=False, sort_keys=True)


def classify(raw: bytes):
    """Returns (message, None) or (None, reason)."""
    try:
        msg = json.loads(raw)
    except ValueError:  # JSONDecodeError and UnicodeDecodeError are both ValueError
        return None, "parse"
    except RecursionError:
        return None, "parse"
    if not isinstance(msg, dict):
        return None, "parse"
    for key in REQUIRED:
        if key not in msg or msg[key] is None:
            return None, "missing-field"
    return msg, None


def insert(con: sqlite3.Connection, msg: dict) -> bool:
    """True if a new row was written, False if the PRIMARY KEY said duplicate."""
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="microseconds")
    con.execute("BEGIN IMMEDIATE")
    try:
        cur = con.execute(
            "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT(msg_id) DO NOTHING",
            (bindable(msg["msg_id"]), bindable(msg["order_no"]),
             bindable(msg["seq"]), bindable(msg["amount"]), now),
        )
        inserted = cur.rowcount == 1
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return inserted


def handle(con, name: str, errors: list, dups: list) -> None:
    path = os.path.join(PROCESSING, name)
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        return  # another consumer finished it under us
    except IsADirectoryError:
        return
    msg, reason = classify(raw)
    if reason is not None:
        if durable_rename(PROCESSING, ERROR, name):
            errors.append((name, reason))
        return
    if not insert(con, msg):
        dups.append(str(msg["msg_id"]))
    durable_rename(PROCESSING, DONE, name)


def regular_files(d: str):
    out = []
    with os.scandir(d) as it:
        for e in it:
            if e.is_file(follow_symlinks=False):
                out.append(e.name)
    return sorted(out)


def merge_outputs(errors, dups) -> None:
    # error.csv: keep rows from earlier runs, add ours, one row per file
    rows = {}
    if os.path.exists(ERROR_CSV):
        with open(ERROR_CSV, encoding="utf-8-sig") as f:
            for line in f.read().splitlines()[1:]:
                if "," in line:
                    fn, rs = line.rsplit(",", 1)
                    rows[fn] = rs
    for fn, rs in errors:
        rows[fn] = rs
    body = "file,reason\n" + "".join(f"{fn},{rows[fn]}\n" for fn in sorted(rows))
    atomic_write(ERROR_CSV, body.encode("utf-8"))

    ids = set()
    if os.path.exists(DUP_TXT):
        with open(DUP_TXT, encoding="utf-8-sig") as f:
            ids.update(l.strip() for l in f if l.strip())
    ids.update(dups)
    atomic_write(DUP_TXT, "".join(i + "\n" for i in sorted(ids)).encode("utf-8"))


def main() -> int:
    for d in (INBOX, PROCESSING, DONE, ERROR):
        os.makedirs(d, exist_ok=True)
    con = open_db()
    errors, dups = [], []

    # 1) the inbox, one file at a time: claim first, read second
    while True:
        names = [n for n in regular_files(INBOX)]
        if not names:
            break
        progressed = False
        for name in names:
            if durable_rename(INBOX, PROCESSING, name):
                progressed = True
                handle(con, name, errors, dups)
        if not progressed:
            break

    # 2) orphans: files left in processing/ by a run that died. Every step above
    #    tolerates ENOENT, so even if a concurrent consumer still owns one of these,
    #    exactly one rename into done/ or error/ can win.
    for name in regular_files(PROCESSING):
        handle(con, name, errors, dups)

    con.close()
    merge_outputs(errors, dups)
    return 0


if __name__ == "__main__":
    sys.exit(main())
