#!/usr/bin/env python3
"""consume.py -- file-queue consumer with idempotent ledger.

Flow per file:
  1. claim:    inbox/x -> processing/x   (os.rename; losing the race = someone else's file)
  2. parse:    not JSON / not an object          -> error/ (parse)
  3. known?:   msg_id already in processed       -> it is a redelivery: ack it (done/), log dup
  4. validate: msg_id, order_no, seq, amount present and not null, else error/ (missing-field)
  5. insert:   INSERT OR IGNORE  -- the UNIQUE constraint is the real guard (two consumers
               can both pass step 3 for the same new id; only one row survives)
  6. done/
"""
from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

REQUIRED = ("msg_id", "order_no", "seq", "amount")


@dataclass
class Dirs:
    root: Path

    def __post_init__(self) -> None:
        for name in ("inbox", "processing", "done", "error"):
            setattr(self, name, self.root / name)
            (self.root / name).mkdir(parents=True, exist_ok=True)


def connect(db: Path) -> sqlite3.Connection:
    con = sqlite3.connect(db, timeout=60)
    con.executescript(
        """
        CREATE TABLE IF NOT EXISTS processed (
            msg_id       TEXT NOT NULL UNIQUE,
            order_no     TEXT NOT NULL,
            seq          INTEGER NOT NULL,
            amount       NUMERIC NOT NULL,
            processed_at TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS duplicates (
            msg_id TEXT NOT NULL,
            file   TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS rejected (
            file   TEXT NOT NULL,
            reason TEXT NOT NULL
        );
        """
    )
    return con


def sqlval(v):
    return v if isinstance(v, (str, int, float)) else json.dumps(v)


def handle(con: sqlite3.Connection, d: Dirs, work: Path) -> str:
    def reject(reason: str) -> str:
        with con:
            con.execute("INSERT INTO rejected VALUES (?, ?)", (work.name, reason))
        os.rename(work, d.error / work.name)
        return reason

    try:
        msg = json.loads(work.read_bytes())
    except ValueError:
        return reject("parse")
    if not isinstance(msg, dict):
        return reject("parse")

    msg_id = msg.get("msg_id")
    if msg_id is not None and con.execute(
        "SELECT 1 FROM processed WHERE msg_id = ?", (sqlval(msg_id),)
    ).fetchone():
        with con:
            con.execute("INSERT INTO duplicates VALUES (?, ?)", (sqlval(msg_id), work.name))
        os.rename(work, d.done / work.name)
        return "duplicate"

    if any(msg.get(k) is None for k in REQUIRED):
        return reject("missing-field")

    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    with con:
        cur = con.execute(
            "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at) VALUES (?, ?, ?, ?, ?)",
            (*(sqlval(msg[k]) for k in REQUIRED), now),
        )
        if cur.rowcount == 0:   # lost a race with a twin consumer
            con.execute("INSERT INTO duplicates VALUES (?, ?)", (sqlval(msg_id), work.name))
    os.rename(work, d.done / work.name)
    return "done"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", type=Path, default=Path("/root/q"))
    args = ap.parse_args()
    d = Dirs(args.root)
    con = connect(args.root / "ledger.db")
    tally: dict[str, int] = {}
    while True:
        names = sorted(p.name for p in d.inbox.iterdir() if p.is_file())
        if not names:
            break
        for name in names:
            work = d.processing / name
            try:
                os.rename(d.inbox / name, work)
            except FileNotFoundError:
                continue
            outcome = handle(con, d, work)
            tally[outcome] = tally.get(outcome, 0) + 1
    con.close()
    print(" ".join(f"{k}={v}" for k, v in sorted(tally.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
