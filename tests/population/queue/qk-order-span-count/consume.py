#!/usr/bin/env python3
"""Queue consumer: claim (rename into processing/), read, validate, record, file away.

The PRIMARY KEY on processed.msg_id is what makes a redelivered message harmless;
the consumer never asks "have I seen this?" itself.
"""
from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
from dataclasses import astuple, dataclass
from datetime import datetime, timezone
from pathlib import Path

REQUIRED = ("msg_id", "order_no", "seq", "amount")


@dataclass(frozen=True, slots=True)
class Row:
    msg_id: object
    order_no: object
    seq: object
    amount: object
    processed_at: str


def classify(raw: bytes) -> Row | str:
    """A Row for a good message, else the error reason."""
    try:
        data = json.loads(raw)
    except ValueError:
        return "parse"
    match data:
        case dict():
            pass
        case _:
            return "parse"          # valid JSON, but not an object
    if any(data.get(k) is None for k in REQUIRED):
        return "missing-field"
    vals = [v if isinstance(v, (str, int, float)) else json.dumps(v) for v in (data[k] for k in REQUIRED)]
    return Row(*vals, processed_at=datetime.now(timezone.utc).isoformat())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--queue", type=Path, default=Path("/root/q"))
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    q: Path = args.queue
    dirs = {d: q / d for d in ("inbox", "processing", "done", "error")}
    for d in dirs.values():
        d.mkdir(parents=True, exist_ok=True)

    con = sqlite3.connect(q / "ledger.db", timeout=60)
    con.execute(
        "CREATE TABLE IF NOT EXISTS processed ("
        " msg_id TEXT PRIMARY KEY, order_no TEXT NOT NULL, seq INTEGER NOT NULL,"
        " amount NUMERIC NOT NULL, processed_at TEXT NOT NULL)"
    )
    con.commit()

    while names := sorted(p.name for p in dirs["inbox"].iterdir() if p.is_file()):
        for name in names:
            claimed = dirs["processing"] / name
            try:
                (dirs["inbox"] / name).rename(claimed)
            except FileNotFoundError:
                continue
            result = classify(claimed.read_bytes())
            if isinstance(result, str):
                claimed.rename(dirs["error"] / name)
                if args.verbose:
                    print(f"{name} -> error ({result})")
                continue
            with con:
                cur = con.execute("INSERT OR IGNORE INTO processed VALUES (?, ?, ?, ?, ?)", astuple(result))
            claimed.rename(dirs["done"] / name)
            if args.verbose:
                print(f"{name} -> done" + ("" if cur.rowcount else f" (duplicate {result.msg_id})"))
    con.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
