#!/usr/bin/env python3
"""File-queue consumer for /root/q (lab "queue").

Claim protocol: inbox/NAME --rename--> processing/NAME (atomic on one filesystem; the
consumer that loses the race gets ENOENT and moves on). Only after the claim is the file read.
Idempotency: UNIQUE(msg_id) in SQLite + ON CONFLICT DO NOTHING; the constraint, not this
code, is the last line of defence.

Exit codes (Nagios style): 0 OK, 2 CRITICAL (infrastructure failure: DB, filesystem),
3 UNKNOWN (bad invocation / queue layout). Quarantined messages are *not* a failure of the
consumer: they are routed to error/ and the run still exits 0.
"""
import argparse
import hashlib
import json
import logging
import os
import sqlite3
import sys
import tempfile
import time
from datetime import datetime, timezone

EXIT_OK, EXIT_WARNING, EXIT_CRITICAL, EXIT_UNKNOWN = 0, 1, 2, 3
REQUIRED_FIELDS = ("msg_id", "order_no", "seq", "amount")
QUEUE_DIRS = ("inbox", "processing", "done", "error")

log = logging.getLogger("consume")

DDL = """
CREATE TABLE IF NOT EXISTS processed (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    msg_id        TEXT    NOT NULL,
    order_no      TEXT    NOT NULL,
    seq           INTEGER NOT NULL,
    amount        NUMERIC NOT NULL,
    processed_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    currency      TEXT,
    created_at    TEXT,
    source_file   TEXT,
    payload_sha256 TEXT,
    CONSTRAINT uq_processed_msg_id UNIQUE (msg_id)
)
"""


class PoisonMessage(Exception):
    def __init__(self, reason, detail):
        super().__init__(detail)
        self.reason = reason


def fsync_dir(path):
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_move(src, dst_dir):
    """rename(2) + fsync of both directories, so a crash never loses or duplicates a file."""
    dst = os.path.join(dst_dir, os.path.basename(src))
    os.rename(src, dst)
    fsync_dir(dst_dir)
    fsync_dir(os.path.dirname(src))
    return dst


def atomic_write_text(path, text):
    d = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", dir=d)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
        fsync_dir(d)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def parse_message(raw):
    try:
        text = raw.decode("utf-8")
        msg = json.loads(text)
    except (UnicodeDecodeError, ValueError) as e:
        raise PoisonMessage("parse", f"not valid JSON: {e}")
    if not isinstance(msg, dict):
        raise PoisonMessage("parse", f"JSON is a {type(msg).__name__}, not an object")
    missing = [k for k in REQUIRED_FIELDS if msg.get(k) is None]
    if missing:
        raise PoisonMessage("missing-field", "missing/null required field(s): " + ",".join(missing))
    return msg


def classify_file(path):
    try:
        with open(path, "rb") as f:
            parse_message(f.read())
    except PoisonMessage as e:
        return e.reason
    return None


def open_db(path):
    conn = sqlite3.connect(path, timeout=60, isolation_level=None)
    conn.execute("PRAGMA busy_timeout = 60000")
    conn.execute(DDL)
    return conn


def insert(conn, msg, source_file, raw):
    for attempt in range(1, 11):
        try:
            cur = conn.execute(
                "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at, currency,"
                " created_at, source_file, payload_sha256) VALUES (?,?,?,?,?,?,?,?,?)"
                " ON CONFLICT (msg_id) DO NOTHING",
                (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"],
                 datetime.now(timezone.utc).isoformat(timespec="microseconds"),
                 msg.get("currency"), msg.get("created_at"), source_file,
                 hashlib.sha256(raw).hexdigest()),
            )
            return cur.rowcount == 1
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) and "busy" not in str(e):
                raise
            log.warning("database busy (attempt %d/10): %s", attempt, e)
            time.sleep(0.2 * attempt)
    raise RuntimeError("database stayed locked")


def write_error_report(root):
    """error.csv is derived from what is actually in error/, rewritten atomically."""
    err_dir = os.path.join(root, "error")
    lines = ["file,reason"]
    for name in sorted(os.listdir(err_dir)):
        p = os.path.join(err_dir, name)
        if os.path.isfile(p):
            lines.append(f"{name},{classify_file(p) or 'unknown'}")
    atomic_write_text(os.path.join(root, "error.csv"), "\n".join(lines) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.join(os.environ.get("LAB_ROOT", "/root"), "q"),
                    help="queue root (default: $LAB_ROOT/q, LAB_ROOT defaults to /root)")
    ap.add_argument("--no-report", action="store_true", help="do not rewrite error.csv")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, stream=sys.stderr,
                        format="%(asctime)s consume[%(process)d] %(levelname)s %(message)s")

    root = os.path.abspath(args.root)
    for d in QUEUE_DIRS:
        if not os.path.isdir(os.path.join(root, d)):
            log.error("UNKNOWN: queue layout broken, %s/%s is not a directory", root, d)
            return EXIT_UNKNOWN
    inbox, processing, done, error = (os.path.join(root, d) for d in QUEUE_DIRS)

    try:
        conn = open_db(os.path.join(root, "ledger.db"))
    except sqlite3.Error as e:
        log.error("CRITICAL: cannot open ledger: %s", e)
        return EXIT_CRITICAL

    stats = dict(claimed=0, inserted=0, duplicate=0, poison=0, lost_race=0)
    try:
        for name in sorted(os.listdir(inbox)):
            src = os.path.join(inbox, name)
            if not os.path.isfile(src):
                log.debug("skip non-regular entry %s", src)
                continue
            try:
                claimed = atomic_move(src, processing)
            except FileNotFoundError:
                stats["lost_race"] += 1
                log.debug("lost claim race for %s (another consumer has it)", name)
                continue
            stats["claimed"] += 1
            with open(claimed, "rb") as f:
                raw = f.read()
            try:
                msg = parse_message(raw)
            except PoisonMessage as e:
                atomic_move(claimed, error)
                stats["poison"] += 1
                log.warning("QUARANTINE %s reason=%s (%s)", name, e.reason, e)
                continue
            if insert(conn, msg, name, raw):
                stats["inserted"] += 1
                log.info("INSERT msg_id=%s order_no=%s seq=%s file=%s",
                         msg["msg_id"], msg["order_no"], msg["seq"], name)
            else:
                stats["duplicate"] += 1
                log.info("DUPLICATE msg_id=%s ignored by UNIQUE constraint file=%s", msg["msg_id"], name)
            atomic_move(claimed, done)
        if not args.no_report:
            write_error_report(root)
    except (OSError, sqlite3.Error, RuntimeError) as e:
        log.error("CRITICAL: %s: %s", type(e).__name__, e)
        return EXIT_CRITICAL
    finally:
        conn.close()

    left = os.listdir(processing)
    if left:
        log.warning("processing/ not empty at exit (another consumer still running?): %d entries", len(left))
    log.info("OK - %s", " ".join(f"{k}={v}" for k, v in stats.items()))
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
