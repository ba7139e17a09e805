#!/usr/bin/env python3
"""consume.py -- file-queue consumer, oldest file first (FIFO by arrival time).

claim = rename inbox/x -> processing/x (atomic; losing the race raises FileNotFoundError)
then read from processing/, validate, INSERT OR IGNORE (msg_id PRIMARY KEY), -> done/ | error/
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import sqlite3
import sys
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

REQUIRED = ("msg_id", "order_no", "seq", "amount")


@dataclass
class Report:
    errors: dict[str, str] = field(default_factory=dict)
    duplicates: set[str] = field(default_factory=set)
    done: int = 0


def arrival_order(inbox: Path) -> list[Path]:
    entries = []
    for p in inbox.iterdir():
        try:
            st = p.stat()
        except FileNotFoundError:
            continue  # claimed by someone else meanwhile
        if p.is_file():
            entries.append((st.st_mtime_ns, p.name, p))
    return [p for _, _, p in sorted(entries)]


def reason_for(raw: bytes) -> tuple[str | None, dict | None]:
    try:
        obj = json.loads(raw)
    except ValueError:
        return "parse", None
    if not isinstance(obj, dict):
        return "parse", None
    missing = [k for k in REQUIRED if obj.get(k) is None]
    return ("missing-field", None) if missing else (None, obj)


def run(root: Path) -> Report:
    rep = Report()
    inbox, processing, done, error = (root / n for n in ("inbox", "processing", "done", "error"))
    for d in (inbox, processing, done, error):
        d.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(root / "ledger.db", timeout=60)
    with con:
        con.execute(
            """CREATE TABLE IF NOT EXISTS processed (
                   msg_id TEXT NOT NULL PRIMARY KEY,
                   order_no TEXT NOT NULL,
                   seq INTEGER NOT NULL,
                   amount NUMERIC NOT NULL,
                   processed_at TEXT NOT NULL)"""
        )
    while batch := arrival_order(inbox):
        for src in batch:
            mine = processing / src.name
            try:
                os.rename(src, mine)
            except FileNotFoundError:
                continue
            reason, msg = reason_for(mine.read_bytes())
            if reason:
                os.rename(mine, error / mine.name)
                rep.errors[mine.name] = reason
                continue
            vals = [msg[k] if isinstance(msg[k], (str, int, float)) else json.dumps(msg[k]) for k in REQUIRED]
            with con:
                cur = con.execute(
                    "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (*vals, datetime.now(timezone.utc).isoformat(timespec="seconds")),
                )
            if cur.rowcount == 0:
                rep.duplicates.add(str(msg["msg_id"]))
            os.rename(mine, done / mine.name)
            rep.done += 1
    con.close()
    return rep


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", type=Path, default=Path("/root/q"))
    ap.add_argument("--write-reports", action="store_true", help="also write dup.txt and error.csv")
    args = ap.parse_args()
    rep = run(args.root)
    if args.write_reports:
        (args.root / "dup.txt").write_text("".join(f"{d}\n" for d in sorted(rep.duplicates)), encoding="utf-8")
        with (args.root / "error.csv").open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(("file", "reason"))
            w.writerows(sorted(rep.errors.items()))
    print(f"done={rep.done} error={len(rep.errors)} duplicate_ids={len(rep.duplicates)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
