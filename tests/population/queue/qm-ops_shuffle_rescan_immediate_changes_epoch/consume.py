#!/usr/bin/env python3
# consume.py -- file-queue consumer (/root/q)
#
# * keeps rescanning inbox until a scan finds nothing left to claim
# * claims in random order, so two consumers started together mostly don't
#   fight over the same file (losing a rename race is fine: skip it)
# * one write transaction per message: BEGIN IMMEDIATE, INSERT .. ON CONFLICT
#   DO NOTHING, SELECT changes(), COMMIT.  msg_id is the PRIMARY KEY.
# * processed_at = unix epoch seconds
import json
import os
import random
import sqlite3
import sys
import time

BASE = "/root/q"
INBOX = BASE + "/inbox"
PROCESSING = BASE + "/processing"
DONE = BASE + "/done"
ERROR = BASE + "/error"
LEDGER = BASE + "/ledger.db"
MUST_HAVE = ("msg_id", "order_no", "seq", "amount")


def log(*parts):
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    print(stamp, "consume[%d]" % os.getpid(), *parts, file=sys.stderr, flush=True)


def open_ledger():
    db = sqlite3.connect(LEDGER, timeout=60, isolation_level=None)  # autocommit; I do BEGIN myself
    db.execute("BEGIN IMMEDIATE")
    db.execute(
        "CREATE TABLE IF NOT EXISTS processed ("
        " msg_id TEXT PRIMARY KEY NOT NULL,"
        " order_no TEXT NOT NULL,"
        " seq INTEGER NOT NULL,"
        " amount NUMERIC NOT NULL,"
        " processed_at INTEGER NOT NULL)"
    )
    db.execute("COMMIT")
    return db


def record(db, m):
    """True if inserted, False if msg_id was already there."""
    def v(x):
        return json.dumps(x) if isinstance(x, (list, dict)) else x
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute(
            "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (msg_id) DO NOTHING",
            (v(m["msg_id"]), v(m["order_no"]), v(m["seq"]), v(m["amount"]), int(time.time())),
        )
        (n,) = db.execute("SELECT changes()").fetchone()
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return n == 1


def verdict(path):
    with open(path, "rb") as f:
        data = f.read()
    try:
        m = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None, "parse"
    if type(m) is not dict:
        return None, "parse"
    gone = [k for k in MUST_HAVE if k not in m or m[k] is None]
    if gone:
        return None, "missing-field (%s)" % ",".join(gone)
    return m, None


def one_pass(db, totals):
    names = [n for n in os.listdir(INBOX) if os.path.isfile(os.path.join(INBOX, n))]
    random.shuffle(names)
    claimed_any = False
    for name in names:
        mine = os.path.join(PROCESSING, name)
        try:
            os.rename(os.path.join(INBOX, name), mine)
        except FileNotFoundError:
            continue
        claimed_any = True
        m, why = verdict(mine)
        if why:
            os.rename(mine, os.path.join(ERROR, name))
            totals["error"] += 1
            log("ERROR", name, why)
            continue
        if record(db, m):
            totals["new"] += 1
            log("OK", name, "msg_id=%s" % m["msg_id"])
        else:
            totals["dup"] += 1
            log("SKIP duplicate", name, "msg_id=%s" % m["msg_id"])
        os.rename(mine, os.path.join(DONE, name))
    return claimed_any


def main():
    for d in (INBOX, PROCESSING, DONE, ERROR):
        os.makedirs(d, exist_ok=True)
    db = open_ledger()
    totals = {"new": 0, "dup": 0, "error": 0}
    passes = 0
    while one_pass(db, totals):
        passes += 1
    db.close()
    log("finished after %d pass(es): new=%d dup=%d error=%d"
        % (passes, totals["new"], totals["dup"], totals["error"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
