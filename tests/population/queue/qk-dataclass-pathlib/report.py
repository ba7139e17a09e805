#!/usr/bin/env python3
"""Write the hand-in reports from what consume.py left: dup.txt, error.csv, order-result.txt."""
from __future__ import annotations

import argparse
import csv
import json
import sqlite3
from collections import Counter
from pathlib import Path

REQUIRED = ("msg_id", "order_no", "seq", "amount")


def reason_for(path: Path) -> str:
    try:
        data = json.loads(path.read_bytes())
    except ValueError:
        return "parse"
    if not isinstance(data, dict):
        return "parse"
    if any(data.get(k) is None for k in REQUIRED):
        return "missing-field"
    return "unknown"  # should not happen


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", type=Path, default=Path("/root/q"))
    root = ap.parse_args().root

    # dup.txt: msg_ids that reached done/ more than once (the later copies were ignored)
    seen = Counter(json.loads(p.read_bytes())["msg_id"] for p in (root / "done").iterdir() if p.is_file())
    dups = sorted(mid for mid, n in seen.items() if n > 1)
    (root / "dup.txt").write_text("".join(f"{d}\n" for d in dups), encoding="utf-8")

    with (root / "error.csv").open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["file", "reason"])
        for p in sorted((root / "error").iterdir()):
            if p.is_file():
                w.writerow([p.name, reason_for(p)])

    sql = (root / "order-check.sql").read_text(encoding="utf-8")
    with sqlite3.connect(root / "ledger.db") as con:
        rows = con.execute(sql).fetchall()
    with (root / "order-result.txt").open("w", encoding="utf-8") as fh:
        if not rows:
            fh.write("OK\n")
        else:
            fh.write(f"PROBLEMS {len(rows)}\n")
            for r in rows:
                fh.write(",".join(map(str, r)) + "\n")


if __name__ == "__main__":
    main()
