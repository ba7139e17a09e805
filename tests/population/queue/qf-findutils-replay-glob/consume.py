#!/usr/bin/env python3
# consume.py: inbox -> processing -> done | error, ledger in SQLite
import json
import os
import sqlite3
import subprocess
from datetime import datetime

Q = "/root/q"
REQ = ("msg_id", "order_no", "seq", "amount")


def find_files(d):
    """regular files directly in d, NUL-separated so any name survives"""
    out = subprocess.run(
        ["find", d, "-mindepth", "1", "-maxdepth", "1", "-type", "f", "-printf", "%f\\0"],
        capture_output=True, check=False,
    ).stdout
    return sorted(os.fsdecode(n) for n in out.split(b"\0") if n)


def mv(name, a, b):
    try:
        os.rename(f"{Q}/{a}/{name}", f"{Q}/{b}/{name}")
        return True
    except FileNotFoundError:
        return False


def col(v):
    if isinstance(v, (list, dict)):
        return json.dumps(v)
    if type(v) is int and not -(1 << 63) <= v < (1 << 63):
        return str(v)
    return v


def process(db, name):
    try:
        with open(f"{Q}/processing/{name}", "rb") as fh:
            raw = fh.read()
    except (FileNotFoundError, IsADirectoryError):
        return
    try:
        msg = json.loads(raw)
        ok = isinstance(msg, dict)
    except ValueError:
        ok = False
    if not ok:
        mv(name, "processing", "error")
        return
    if any(msg.get(k) is None for k in REQ):
        mv(name, "processing", "error")
        return
    with db:  # commits
        db.execute(
            "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) VALUES (?,?,?,?,?) "
            "ON CONFLICT (msg_id) DO NOTHING",
            [col(msg[k]) for k in REQ] + [datetime.now().isoformat(timespec="seconds")],
        )
    mv(name, "processing", "done")


def main():
    for d in ("inbox", "processing", "done", "error"):
        os.makedirs(f"{Q}/{d}", exist_ok=True)
    db = sqlite3.connect(f"{Q}/ledger.db", timeout=30)
    db.execute("CREATE TABLE IF NOT EXISTS processed (msg_id TEXT PRIMARY KEY, order_no TEXT, "
               "seq INTEGER, amount NUMERIC, processed_at TEXT)")
    db.commit()
    while True:
        names = find_files(f"{Q}/inbox")
        if not names:
            break
        for n in names:
            if mv(n, "inbox", "processing"):
                process(db, n)
    for n in find_files(f"{Q}/processing"):
        process(db, n)
    db.close()


if __name__ == "__main__":
    main()
