#!/usr/bin/env python3
# consume.py -- every consumer process gets its own claim folder: processing/w<pid>/
#   inbox/F --rename--> processing/w<pid>/F --> done/F | error/F
# rename() is atomic inside one filesystem, so a file is claimed by exactly one worker.
# At start, claim folders of workers that are no longer alive are put back into inbox/.
import json
import os
import sqlite3
import sys
from datetime import datetime, timezone
from pathlib import Path

Q = Path(os.environ.get("LAB_ROOT", "/root")) / "q"
INBOX, PROCESSING, DONE, ERROR = Q / "inbox", Q / "processing", Q / "done", Q / "error"
MY_DIR = PROCESSING / f"w{os.getpid()}"
REQUIRED = ("msg_id", "order_no", "seq", "amount")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def recover_dead_workers():
    for wdir in PROCESSING.glob("w*"):
        if not wdir.is_dir() or not wdir.name[1:].isdigit():
            continue
        if wdir == MY_DIR or alive(int(wdir.name[1:])):
            continue
        for f in wdir.iterdir():
            try:
                f.rename(INBOX / f.name)
                print(f"recovered {f.name} from dead worker {wdir.name}", file=sys.stderr)
            except FileNotFoundError:
                pass                      # another starting worker recovered it first
        try:
            wdir.rmdir()
        except OSError:
            pass


def db_connect():
    db = sqlite3.connect(Q / "ledger.db", timeout=60)
    db.execute("PRAGMA busy_timeout = 60000")
    db.execute("PRAGMA journal_mode = WAL")
    with db:
        db.execute("""CREATE TABLE IF NOT EXISTS processed (
                          id           INTEGER PRIMARY KEY,
                          msg_id       TEXT    NOT NULL,
                          order_no     TEXT    NOT NULL,
                          seq          INTEGER NOT NULL,
                          amount       NUMERIC NOT NULL,
                          processed_at TEXT    NOT NULL,
                          worker       TEXT)""")
        db.execute("CREATE UNIQUE INDEX IF NOT EXISTS ux_processed_msg_id ON processed (msg_id)")
    return db


def classify(data: bytes):
    try:
        msg = json.loads(data)
    except ValueError:
        return None, "parse"
    if not isinstance(msg, dict):
        return None, "parse"
    if [k for k in REQUIRED if msg.get(k) is None]:
        return None, "missing-field"
    return msg, None


def run():
    for d in (INBOX, PROCESSING, DONE, ERROR):
        d.mkdir(parents=True, exist_ok=True)
    recover_dead_workers()
    MY_DIR.mkdir(exist_ok=True)
    db = db_connect()
    n = {"done": 0, "error": 0, "duplicate": 0}
    try:
        while True:
            batch = sorted(p.name for p in INBOX.iterdir() if p.is_file())
            if not batch:
                break
            for name in batch:
                claimed = MY_DIR / name
                try:
                    (INBOX / name).rename(claimed)
                except FileNotFoundError:
                    continue
                msg, reason = classify(claimed.read_bytes())
                if reason:
                    claimed.rename(ERROR / name)
                    n["error"] += 1
                    print(f"error {name}: {reason}", file=sys.stderr)
                    continue
                with db:
                    cur = db.execute(
                        "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at, worker) "
                        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (msg_id) DO NOTHING",
                        (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"],
                         datetime.now(timezone.utc).isoformat(timespec="milliseconds"), MY_DIR.name))
                if cur.rowcount == 0:
                    n["duplicate"] += 1
                    print(f"duplicate {name}: msg_id {msg['msg_id']} ignored", file=sys.stderr)
                claimed.rename(DONE / name)
                n["done"] += 1
    finally:
        db.close()
        MY_DIR.rmdir()                 # empty again: processing/ is left as we found it
    print(json.dumps({"worker": MY_DIR.name, **n}))


if __name__ == "__main__":
    run()
