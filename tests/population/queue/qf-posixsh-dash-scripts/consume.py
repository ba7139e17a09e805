#!/usr/bin/env python3
import json
import sqlite3
import sys
from datetime import datetime
from pathlib import Path

Q = Path("/root/q")
INBOX, PROCESSING, DONE, ERROR = (Q / d for d in ("inbox", "processing", "done", "error"))
REQUIRED = ["msg_id", "order_no", "seq", "amount"]


def db():
    con = sqlite3.connect(Q / "ledger.db", timeout=30)
    con.execute("""CREATE TABLE IF NOT EXISTS processed (
        msg_id TEXT PRIMARY KEY,
        order_no TEXT,
        seq INTEGER,
        amount INTEGER,
        processed_at TEXT)""")
    con.commit()
    return con


def sqlval(v):
    # sqlite3 refuses dict/list and ints over 64 bits: keep them as text
    if isinstance(v, (dict, list)):
        return json.dumps(v)
    if isinstance(v, int) and not isinstance(v, bool) and not -2**63 <= v < 2**63:
        return str(v)
    return v


def process(con, path):
    try:
        data = path.read_bytes()
    except (FileNotFoundError, IsADirectoryError):
        return
    try:
        msg = json.loads(data)
        if not isinstance(msg, dict):
            raise ValueError("not an object")
    except ValueError:
        reason = "parse"
    else:
        missing = [k for k in REQUIRED if msg.get(k) is None]
        reason = "missing-field" if missing else None

    if reason:
        try:
            path.rename(ERROR / path.name)
            print(f"ERROR\t{path.name}\t{reason}")
        except FileNotFoundError:
            pass
        return

    cur = con.execute(
        "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at) VALUES (?,?,?,?,?)",
        [sqlval(msg[k]) for k in REQUIRED] + [datetime.now().isoformat()],
    )
    con.commit()
    if cur.rowcount == 0:
        print(f"DUP\t{msg['msg_id']}")
    try:
        path.rename(DONE / path.name)
    except FileNotFoundError:
        pass


def main():
    for d in (INBOX, PROCESSING, DONE, ERROR):
        d.mkdir(parents=True, exist_ok=True)
    con = db()
    while True:
        todo = sorted(p for p in INBOX.iterdir() if p.is_file() and not p.is_symlink())
        if not todo:
            break
        for p in todo:
            claimed = PROCESSING / p.name
            try:
                p.rename(claimed)          # claim first
            except FileNotFoundError:
                continue                   # someone else has it
            process(con, claimed)          # then read
    # leftovers from an earlier crashed run
    for p in sorted(PROCESSING.iterdir()):
        if p.is_file() and not p.is_symlink():
            process(con, p)
    con.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
