#!/usr/bin/env python3
"""Directory-queue consumer, safe to run as several processes at once.

Claim      : os.rename(inbox/F, processing/F)  -- exactly one process wins.
Idempotency: processed.msg_id PRIMARY KEY + INSERT OR IGNORE (the DB decides, not an if).
Recovery   : files left in processing/ by a crashed consumer are moved back to inbox/
             at start -- but only when no other consumer is alive. Every consumer holds a
             SHARED flock on q/.consumers.lock while it runs; recovery needs the EXCLUSIVE
             lock (non-blocking), so it can never steal a live consumer's file.
"""
import fcntl
import json
import logging
import os
import sqlite3
import sys
import time

Q = os.path.join(os.environ.get("LAB_ROOT", "/root"), "q")
DIRS = {d: os.path.join(Q, d) for d in ("inbox", "processing", "done", "error")}
REQUIRED = ("msg_id", "order_no", "seq", "amount")

log = logging.getLogger("consume")


def setup_logging():
    fmt = logging.Formatter("%(asctime)s pid=%(process)d %(levelname)s %(message)s")
    for h in (logging.StreamHandler(sys.stderr), logging.FileHandler(os.path.join(Q, "consume.log"))):
        h.setFormatter(fmt)
        log.addHandler(h)
    log.setLevel(logging.INFO)


def join_group():
    fd = os.open(os.path.join(Q, ".consumers.lock"), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        log.info("other consumers are running: skip recovery")
    else:
        recover()
    fcntl.flock(fd, fcntl.LOCK_SH)  # (downgrade) held until exit; the kernel drops it if we crash
    return fd


def recover():
    for name in sorted(os.listdir(DIRS["processing"])):
        src = os.path.join(DIRS["processing"], name)
        dst = os.path.join(DIRS["inbox"], name)
        if not os.path.isfile(src):
            continue
        if os.path.exists(dst):
            log.warning("RECOVER-SKIP %s (already in inbox)", name)
            continue
        os.rename(src, dst)
        log.warning("RECOVER %s processing -> inbox", name)


def open_db():
    db = sqlite3.connect(os.path.join(Q, "ledger.db"), timeout=60, isolation_level=None)
    db.execute("PRAGMA busy_timeout=60000")
    db.execute("BEGIN IMMEDIATE")
    db.execute("""CREATE TABLE IF NOT EXISTS processed (
                      msg_id       TEXT NOT NULL UNIQUE,
                      order_no     TEXT NOT NULL,
                      seq          INTEGER NOT NULL,
                      amount       NUMERIC NOT NULL,
                      processed_at TEXT NOT NULL,
                      consumer_pid INTEGER)""")
    db.execute("COMMIT")
    return db


def check(raw):
    try:
        m = json.loads(raw)
    except ValueError:
        return None, "parse"
    if not isinstance(m, dict):
        return None, "parse"
    if any(m.get(k) is None for k in REQUIRED):
        return None, "missing-field"
    return m, None


def consume_one(db, name):
    work = os.path.join(DIRS["processing"], name)
    try:
        os.rename(os.path.join(DIRS["inbox"], name), work)
    except FileNotFoundError:
        return False                       # lost the race: someone else claimed it
    with open(work, "rb") as f:
        msg, reason = check(f.read())
    if reason:
        os.rename(work, os.path.join(DIRS["error"], name))
        log.info("REJECT %s %s", name, reason)
        return True
    db.execute("BEGIN IMMEDIATE")
    cur = db.execute(
        "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at, consumer_pid) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"],
         time.strftime("%Y-%m-%dT%H:%M:%S%z"), os.getpid()))
    db.execute("COMMIT")
    # commit first, then move: a crash in between only causes a harmless redelivery
    os.rename(work, os.path.join(DIRS["done"], name))
    if cur.rowcount == 0:
        log.info("DUPLICATE %s %s", name, msg["msg_id"])
    else:
        log.info("STORED %s %s", name, msg["msg_id"])
    return True


def main():
    for d in DIRS.values():
        os.makedirs(d, exist_ok=True)
    setup_logging()
    lock_fd = join_group()
    db = open_db()
    handled = 0
    while True:
        names = sorted(os.listdir(DIRS["inbox"]))
        names = [n for n in names if os.path.isfile(os.path.join(DIRS["inbox"], n))]
        if not names:
            break
        handled += sum(consume_one(db, n) for n in names)
    db.close()
    log.info("EXIT handled=%d", handled)
    os.close(lock_fd)
    return 0


if __name__ == "__main__":
    sys.exit(main())
