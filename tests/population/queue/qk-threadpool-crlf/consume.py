#!/usr/bin/env python3
"""consume.py -- multi-threaded file-queue consumer.

Each worker thread claims one file at a time by renaming inbox/x -> processing/x
(the rename is the lock: only one thread/process can win it), reads it there,
inserts into ledger.db (own connection per thread) and moves it to done/ or error/.
De-duplication is the UNIQUE constraint on processed.msg_id, not a Python set.

    python3 consume.py [--root /root/q] [--workers 4] [--report]

--report also writes dup.txt and error.csv for this run (used once for the hand-in).
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import sqlite3
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

REQUIRED = ("msg_id", "order_no", "seq", "amount")

DDL = [
    """CREATE TABLE IF NOT EXISTS processed (
           id           INTEGER PRIMARY KEY AUTOINCREMENT,
           msg_id       TEXT NOT NULL UNIQUE,
           order_no     TEXT NOT NULL,
           seq          INTEGER NOT NULL,
           amount       REAL NOT NULL,
           processed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
           source_file  TEXT,
           worker       TEXT
       )""",
    "CREATE INDEX IF NOT EXISTS processed_order_seq ON processed (order_no, seq)",
]


@dataclass
class Outcome:
    file: str
    status: str            # done | duplicate | error | lost (claimed by someone else)
    reason: str = ""
    msg_id: str | None = None


class Worker:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.local = threading.local()

    def db(self) -> sqlite3.Connection:
        con = getattr(self.local, "con", None)
        if con is None:
            con = sqlite3.connect(self.root / "ledger.db", timeout=60)
            self.local.con = con
        return con

    @staticmethod
    def classify(raw: bytes) -> tuple[dict | None, str]:
        try:
            data = json.loads(raw)
        except ValueError:
            return None, "parse"
        if not isinstance(data, dict):
            return None, "parse"
        for key in REQUIRED:
            if data.get(key) is None:      # absent or null
                return None, "missing-field"
        return data, ""

    def handle(self, name: str) -> Outcome:
        src = self.root / "inbox" / name
        claimed = self.root / "processing" / name
        try:
            os.rename(src, claimed)
        except FileNotFoundError:
            return Outcome(name, "lost")
        data, reason = self.classify(claimed.read_bytes())
        if data is None:
            os.rename(claimed, self.root / "error" / name)
            return Outcome(name, "error", reason)
        row = tuple(v if isinstance(v, (str, int, float)) else json.dumps(v)
                    for v in (data[k] for k in REQUIRED))
        con = self.db()
        with con:
            cur = con.execute(
                "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, source_file, worker) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (*row, name, f"{os.getpid()}/{threading.current_thread().name}"),
            )
        os.rename(claimed, self.root / "done" / name)
        return Outcome(name, "done" if cur.rowcount == 1 else "duplicate", msg_id=str(data["msg_id"]))


def init_db(root: Path) -> None:
    for attempt in range(50):
        try:
            with sqlite3.connect(root / "ledger.db", timeout=60) as con:
                for stmt in DDL:
                    con.execute(stmt)
            return
        except sqlite3.OperationalError:  # another consumer creating it right now
            time.sleep(0.1)
    raise SystemExit("could not initialise ledger.db")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", type=Path, default=Path("/root/q"))
    ap.add_argument("--workers", type=int, default=4)
    ap.add_argument("--report", action="store_true")
    args = ap.parse_args()
    root: Path = args.root
    for d in ("inbox", "processing", "done", "error"):
        (root / d).mkdir(parents=True, exist_ok=True)
    init_db(root)

    worker = Worker(root)
    outcomes: list[Outcome] = []
    with ThreadPoolExecutor(max_workers=max(1, args.workers), thread_name_prefix="w") as pool:
        while True:
            names = sorted(e.name for e in os.scandir(root / "inbox") if e.is_file())
            if not names:
                break
            outcomes.extend(pool.map(worker.handle, names))

    done = [o for o in outcomes if o.status in ("done", "duplicate")]
    errors = [o for o in outcomes if o.status == "error"]
    dups = sorted({o.msg_id for o in outcomes if o.status == "duplicate"})
    print(f"done={len(done)} error={len(errors)} duplicates={len(dups)}")

    if args.report:
        # csv module default line ends are \r\n -- fine for a csv
        with open(root / "error.csv", "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(["file", "reason"])
            for o in sorted(errors, key=lambda o: o.file):
                w.writerow([o.file, o.reason])
        with open(root / "dup.txt", "w", newline="", encoding="utf-8") as fh:
            fh.writelines(f"{d}\r\n" for d in dups)
    return 0


if __name__ == "__main__":
    sys.exit(main())
