#!/usr/bin/env python3
# All the logic is in ledger.sql (view "incoming" + INSTEAD OF trigger).
# Python only claims a file (rename inbox -> processing), reads it, asks the
# database where it goes, and moves it there.
import os
import sqlite3
import sys

Q = os.path.dirname(os.path.abspath(__file__))
DIRS = {d: os.path.join(Q, d) for d in ("inbox", "processing", "done", "error")}


def connect():
    con = sqlite3.connect(os.path.join(Q, "ledger.db"), timeout=30, isolation_level=None)
    with open(os.path.join(Q, "ledger.sql"), encoding="utf-8") as f:
        ddl = f.read()
    con.executescript(ddl)  # every statement is IF NOT EXISTS
    return con


def route(con, name):
    path = os.path.join(DIRS["processing"], name)
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except (FileNotFoundError, IsADirectoryError):
        return
    try:
        body = raw.decode("utf-8")
    except UnicodeDecodeError:
        body = None  # the trigger calls that "parse"
    con.execute("BEGIN IMMEDIATE")
    try:
        con.execute("INSERT INTO incoming (file, body) VALUES (?, ?)", (name, body))
        dest = con.execute("SELECT dest FROM routing WHERE file = ?", (name,)).fetchone()[0]
        con.execute("COMMIT")
    except Exception:
        con.execute("ROLLBACK")
        raise
    try:
        os.rename(path, os.path.join(DIRS[dest], name))
    except FileNotFoundError:
        pass


def files(d):
    return sorted(e.name for e in os.scandir(d) if e.is_file(follow_symlinks=False))


def main():
    for d in DIRS.values():
        os.makedirs(d, exist_ok=True)
    con = connect()
    while True:
        names = files(DIRS["inbox"])
        if not names:
            break
        for name in names:
            try:
                os.rename(os.path.join(DIRS["inbox"], name), os.path.join(DIRS["processing"], name))
            except FileNotFoundError:
                continue  # the other consumer claimed it
            route(con, name)
    # files a crashed run left behind
    for name in files(DIRS["processing"]):
        route(con, name)
    con.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
