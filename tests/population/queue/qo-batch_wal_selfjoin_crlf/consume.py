#!/usr/bin/env python3
# consume.py -- batch consumer for the directory queue
#
# loop:
#   1. claim up to BATCH files: os.replace(inbox/x, processing/x), one at a time
#      (a FileNotFoundError means another consumer claimed it first -> skip)
#   2. read the claimed files; bad ones go straight to error/
#   3. good ones, sorted by (order_no, seq), go into the ledger in ONE transaction;
#      PRIMARY KEY(msg_id) + ON CONFLICT DO NOTHING drops duplicates
#   4. after COMMIT the batch moves to done/
# until inbox has nothing left to claim.
import json
import os
import sqlite3
import sys
import time
from datetime import datetime

BASE = "/root/q"
INBOX = os.path.join(BASE, "inbox")
PROC = os.path.join(BASE, "processing")
DONE = os.path.join(BASE, "done")
ERR = os.path.join(BASE, "error")
DB = os.path.join(BASE, "ledger.db")
LOG = os.path.join(BASE, "consume.log")
BATCH = 25
REQUIRED = ["msg_id", "order_no", "seq", "amount"]


def log(line):
    print(line)
    with open(LOG, "a", encoding="utf-8") as f:
        f.write(line + "\n")


def open_db():
    con = sqlite3.connect(DB, timeout=30, isolation_level=None)  # explicit BEGIN/COMMIT
    for _ in range(100):
        try:
            con.execute("PRAGMA journal_mode=WAL")
            break
        except sqlite3.OperationalError:  # the other consumer is switching it right now
            time.sleep(0.05)
    con.execute("PRAGMA busy_timeout = 30000")
    con.execute(
        "CREATE TABLE IF NOT EXISTS processed ("
        " msg_id VARCHAR(64) PRIMARY KEY,"
        " order_no VARCHAR(32) NOT NULL,"
        " seq INT NOT NULL,"
        " amount BIGINT NOT NULL,"
        " processed_at TIMESTAMP NOT NULL)"
    )
    return con


def validate(raw):
    try:
        m = json.loads(raw)
    except ValueError:
        return None, "parse"
    if type(m) is not dict:
        return None, "parse"
    for k in REQUIRED:
        if k not in m or m[k] is None:
            return None, "missing-field"
    return m, None


def db_value(v):
    if isinstance(v, (list, dict)):
        return json.dumps(v)
    return v


def sort_key(item):
    m = item[1]
    seq = m["seq"]
    if isinstance(seq, (int, float)) and not isinstance(seq, bool):
        return (str(m["order_no"]), 0, seq, "")
    return (str(m["order_no"]), 1, 0, str(seq))


def claim_batch():
    claimed = []
    for name in sorted(os.listdir(INBOX)):
        if len(claimed) == BATCH:
            break
        src = os.path.join(INBOX, name)
        if not os.path.isfile(src):
            continue
        try:
            os.replace(src, os.path.join(PROC, name))
        except FileNotFoundError:
            continue
        claimed.append(name)
    return claimed


def run_batch(con, names):
    good = []
    for name in names:
        path = os.path.join(PROC, name)
        with open(path, "rb") as f:
            msg, why = validate(f.read())
        if why:
            os.replace(path, os.path.join(ERR, name))
            log("ERROR %s %s" % (why, name))
        else:
            good.append((name, msg))
    good.sort(key=sort_key)

    results = []
    con.execute("BEGIN IMMEDIATE")
    try:
        for name, msg in good:
            before = con.total_changes
            con.execute(
                "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT(msg_id) DO NOTHING",
                (db_value(msg["msg_id"]), db_value(msg["order_no"]), db_value(msg["seq"]),
                 db_value(msg["amount"]), datetime.now().strftime("%Y-%m-%d %H:%M:%S")),
            )
            results.append((name, msg, con.total_changes > before))
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise

    for name, msg, new in results:
        os.replace(os.path.join(PROC, name), os.path.join(DONE, name))
        log("%s %s %s" % ("OK " if new else "DUP", msg["msg_id"], name))


def main():
    con = open_db()
    while True:
        names = claim_batch()
        if not names:
            break
        run_batch(con, names)
    con.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
