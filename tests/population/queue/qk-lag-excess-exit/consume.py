#!/usr/bin/env python3
"""consume.py -- one-at-a-time file-queue consumer (queue lab step 3).

Each file: inbox -> processing (os.replace is atomic on one filesystem), read,
validate, INSERT OR IGNORE into processed (msg_id PRIMARY KEY), -> done or error.
Writes a small JSON summary (consume-summary.json) next to the queue for the hand-in.
"""
from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path

REQUIRED = ("msg_id", "order_no", "seq", "amount")


def open_ledger(path: Path) -> sqlite3.Connection:
    con = sqlite3.connect(path, timeout=60)
    con.execute(
        """CREATE TABLE IF NOT EXISTS processed (
               msg_id       TEXT PRIMARY KEY,
               order_no     TEXT NOT NULL,
               seq          INTEGER NOT NULL,
               amount       NUMERIC NOT NULL,
               processed_at TEXT NOT NULL
           )"""
    )
    con.commit()
    return con


def validate(raw: bytes):
    """Return (reason, message). reason is None for a good message."""
    try:
        msg = json.loads(raw)
    except ValueError:
        return "parse", None
    if not isinstance(msg, dict):
        return "parse", None
    if any(msg.get(k) is None for k in REQUIRED):  # absent or null
        return "missing-field", msg
    return None, msg


def scalar(v):
    return v if isinstance(v, (str, int, float)) else json.dumps(v)


def consume(root: Path) -> dict:
    inbox, processing, done, error = (root / d for d in ("inbox", "processing", "done", "error"))
    for d in (inbox, processing, done, error):
        d.mkdir(parents=True, exist_ok=True)
    summary = {"done": [], "error": {}, "duplicates": []}
    with closing(open_ledger(root / "ledger.db")) as con:
        while True:
            todo = sorted(p for p in inbox.iterdir() if p.is_file())
            if not todo:
                break
            for src in todo:
                work = processing / src.name
                try:
                    os.replace(src, work)
                except FileNotFoundError:
                    continue
                reason, msg = validate(work.read_bytes())
                if reason is not None:
                    os.replace(work, error / work.name)
                    summary["error"][work.name] = reason
                    continue
                with con:
                    cur = con.execute(
                        "INSERT OR IGNORE INTO processed VALUES (?, ?, ?, ?, ?)",
                        (*(scalar(msg[k]) for k in REQUIRED),
                         datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")),
                    )
                if cur.rowcount == 0:
                    summary["duplicates"].append(str(msg["msg_id"]))
                os.replace(work, done / work.name)
                summary["done"].append(work.name)
    return summary


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", type=Path, default=Path("/root/q"))
    ap.add_argument("--summary", type=Path, help="write a JSON summary of this run here")
    args = ap.parse_args()
    summary = consume(args.root)
    if args.summary:
        args.summary.write_text(json.dumps(summary, indent=2, sort_keys=True), encoding="utf-8")
    print(f"done={len(summary['done'])} error={len(summary['error'])} duplicates={len(summary['duplicates'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
