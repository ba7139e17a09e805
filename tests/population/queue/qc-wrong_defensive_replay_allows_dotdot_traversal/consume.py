#!/usr/bin/env python3
"""Directory-queue consumer.

usage: consume.py [--queue-dir DIR] [--db PATH] [--max N] [--quiet]

Exit codes follow the monitoring-plugin convention:
  0 OK        run finished (poison messages were quarantined to error/, that is normal)
  2 CRITICAL  the consumer itself failed (database or filesystem error)
  3 UNKNOWN   invalid invocation or queue layout
"""
import argparse
import json
import logging
import os
import sqlite3
import sys
import time
from datetime import datetime, timezone

OK, WARNING, CRITICAL, UNKNOWN = 0, 1, 2, 3
REQUIRED = ("msg_id", "order_no", "seq", "amount")

log = logging.getLogger("consume")


def classify(raw: bytes):
    """Return (None, msg) for a valid message, or (reason, None)."""
    try:
        msg = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return "parse", None
    if not isinstance(msg, dict):
        return "parse", None
    for field in REQUIRED:
        if msg.get(field) is None:
            return "missing-field", None
    return None, msg


def fsync_path(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def move(src, dst):
    os.rename(src, dst)
    fsync_path(os.path.dirname(dst))


def main():
    default_q = os.path.join(os.environ.get("LAB_ROOT", "/root"), "q")
    ap = argparse.ArgumentParser()
    ap.add_argument("--queue-dir", default=default_q)
    ap.add_argument("--db", default=None, help="default: QUEUE_DIR/ledger.db")
    ap.add_argument("--max", type=int, default=0, help="stop after N messages (0 = all)")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING if args.quiet else logging.INFO,
                        format="%(asctime)s %(levelname)s consume: %(message)s")

    q = args.queue_dir
    dirs = {d: os.path.join(q, d) for d in ("inbox", "processing", "done", "error")}
    for d, p in dirs.items():
        if not os.path.isdir(p):
            log.error("UNKNOWN: missing queue directory %s", p)
            return UNKNOWN

    try:
        db = sqlite3.connect(args.db or os.path.join(q, "ledger.db"), timeout=60)
        db.execute("""CREATE TABLE IF NOT EXISTS processed (
                          msg_id       TEXT NOT NULL PRIMARY KEY,
                          order_no     TEXT NOT NULL,
                          seq          INTEGER NOT NULL,
                          amount       NUMERIC NOT NULL,
                          processed_at TEXT NOT NULL)""")
        db.commit()
    except sqlite3.Error as e:
        log.error("CRITICAL: ledger unavailable: %s", e)
        return CRITICAL

    n = 0
    try:
        for name in sorted(os.listdir(dirs["inbox"])):
            if args.max and n >= args.max:
                break
            src = os.path.join(dirs["inbox"], name)
            work = os.path.join(dirs["processing"], name)
            if not os.path.isfile(src):
                continue
            try:
                move(src, work)
            except FileNotFoundError:
                log.info("skip %s: claimed by another consumer", name)
                continue
            n += 1
            with open(work, "rb") as fh:
                reason, msg = classify(fh.read())
            if reason:
                move(work, os.path.join(dirs["error"], name))
                log.warning("quarantined %s reason=%s", name, reason)
                continue
            with db:
                cur = db.execute(
                    "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT(msg_id) DO NOTHING",
                    (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"],
                     datetime.now(timezone.utc).isoformat()))
            if cur.rowcount == 0:
                log.info("duplicate msg_id=%s file=%s (ignored)", msg["msg_id"], name)
            else:
                log.info("processed msg_id=%s file=%s", msg["msg_id"], name)
            move(work, os.path.join(dirs["done"], name))
    except (OSError, sqlite3.Error) as e:
        log.error("CRITICAL: %s", e)
        return CRITICAL
    finally:
        db.close()
    log.info("OK: %d message(s) handled", n)
    return OK


if __name__ == "__main__":
    sys.exit(main())
