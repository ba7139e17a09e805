#!/usr/bin/env python3
"""Batch consumer for the file queue.

Claims up to --batch files (each one renamed inbox -> processing on its own, then
read from processing/), writes the whole batch to ledger.db in ONE transaction
(BEGIN IMMEDIATE), and only after COMMIT moves the files on to done/ or error/.
A crash before COMMIT leaves the files in processing/ with nothing written.

Bookkeeping tables besides `processed`:
  errors(file, reason, seen_at)      -> error.csv is an export of it
  dup_log(msg_id, file, seen_at)     -> dup.txt is an export of it
"""
from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

REQUIRED = ("msg_id", "order_no", "seq", "amount")

DDL = """
CREATE TABLE IF NOT EXISTS processed (
    msg_id       TEXT PRIMARY KEY,
    order_no     TEXT NOT NULL,
    seq          INTEGER NOT NULL,
    amount       NUMERIC NOT NULL,
    processed_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS errors (
    file    TEXT NOT NULL,
    reason  TEXT NOT NULL CHECK (reason IN ('parse', 'missing-field')),
    seen_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS dup_log (
    msg_id  TEXT NOT NULL,
    file    TEXT NOT NULL,
    seen_at TEXT NOT NULL
);
"""


@dataclass
class Item:
    name: str
    path: Path
    reason: str | None = None
    values: tuple | None = None
    duplicate: bool = False


def sql_value(v):
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, (str, int, float)):
        return v
    return json.dumps(v)


def inspect(item: Item) -> None:
    try:
        msg = json.loads(item.path.read_bytes())
    except ValueError:
        item.reason = "parse"
        return
    if not isinstance(msg, dict):
        item.reason = "parse"
    elif any(msg.get(k) is None for k in REQUIRED):
        item.reason = "missing-field"
    else:
        item.values = tuple(sql_value(msg[k]) for k in REQUIRED)


class Consumer:
    def __init__(self, root: Path, batch: int) -> None:
        self.root, self.batch = root, max(1, batch)
        for d in ("inbox", "processing", "done", "error"):
            (root / d).mkdir(parents=True, exist_ok=True)
        self.con = sqlite3.connect(root / "ledger.db", timeout=60, isolation_level=None)
        self.con.executescript(DDL)  # IF NOT EXISTS: a twin consumer may be creating them too
        self.counts = {"done": 0, "error": 0, "dup": 0}

    def claim_batch(self) -> list[Item]:
        items: list[Item] = []
        for entry in sorted(os.scandir(self.root / "inbox"), key=lambda e: e.name):
            if len(items) == self.batch:
                break
            if not entry.is_file():
                continue
            target = self.root / "processing" / entry.name
            try:
                os.rename(entry.path, target)
            except FileNotFoundError:
                continue  # lost the race to another consumer
            items.append(Item(entry.name, target))
        return items

    def write(self, items: list[Item]) -> None:
        now = datetime.now().astimezone().isoformat(timespec="milliseconds")
        cur = self.con.cursor()
        cur.execute("BEGIN IMMEDIATE")
        try:
            for it in items:
                if it.reason:
                    cur.execute("INSERT INTO errors VALUES (?, ?, ?)", (it.name, it.reason, now))
                    continue
                cur.execute("INSERT OR IGNORE INTO processed VALUES (?, ?, ?, ?, ?)", (*it.values, now))
                if cur.rowcount == 0:
                    it.duplicate = True
                    cur.execute("INSERT INTO dup_log VALUES (?, ?, ?)", (it.values[0], it.name, now))
            cur.execute("COMMIT")
        except BaseException:
            cur.execute("ROLLBACK")
            raise

    def run(self) -> None:
        while True:
            items = self.claim_batch()
            if not items:
                if not any(e.is_file() for e in os.scandir(self.root / "inbox")):
                    break
                continue
            for it in items:
                inspect(it)
            self.write(items)
            for it in items:
                dest = "error" if it.reason else "done"
                os.rename(it.path, self.root / dest / it.name)
                self.counts[dest] += 1
                self.counts["dup"] += it.duplicate


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", type=Path, default=Path("/root/q"))
    ap.add_argument("--batch", type=int, default=8)
    a = ap.parse_args()
    c = Consumer(a.root, a.batch)
    c.run()
    print("done={done} error={error} duplicates={dup}".format(**c.counts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
