#!/usr/bin/env python3
"""Consume the directory queue: inbox -> processing -> done | error.

    python3 consume.py [--root /root/q] [-v]

* claim:  os.rename(inbox/x, processing/x) -- atomic, so two consumers never share a file
* read:   only after the claim
* dedupe: UNIQUE(msg_id) + INSERT ... ON CONFLICT DO NOTHING (the DB decides, not an if)
* poison: unparseable / incomplete messages go to error/ and stay there
"""
from __future__ import annotations

import argparse
import logging
import os
import sys
from collections import Counter
from pathlib import Path

from queue_common import QUEUE_DIRS, QUEUE_ROOT, classify, connect, natural_key, now_iso

log = logging.getLogger("consume")


def claim(src: Path, processing: Path) -> Path | None:
    dst = processing / src.name
    try:
        os.rename(src, dst)
    except FileNotFoundError:  # another consumer was faster
        return None
    return dst


def run(root: Path) -> Counter:
    inbox, processing, done, error = (root / d for d in QUEUE_DIRS)
    for d in (inbox, processing, done, error):
        d.mkdir(parents=True, exist_ok=True)

    stats: Counter = Counter()
    con = connect(root / "ledger.db")
    try:
        names = sorted((p.name for p in inbox.iterdir() if p.is_file()), key=natural_key)
        for name in names:
            work = claim(inbox / name, processing)
            if work is None:
                stats["lost_race"] += 1
                continue

            verdict = classify(work.read_bytes())
            if not verdict.ok:
                os.rename(work, error / name)
                stats[f"error:{verdict.reason}"] += 1
                log.info("%s -> error (%s)", name, verdict.reason)
                continue

            m = verdict.message
            with con:  # commit before the file leaves processing/
                cur = con.execute(
                    "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (m["msg_id"], m["order_no"], m["seq"], m["amount"], now_iso()),
                )
            stats["inserted" if cur.rowcount == 1 else "duplicate"] += 1
            os.rename(work, done / name)
            log.info("%s -> done (%s)", name, "new" if cur.rowcount == 1 else "duplicate")
    finally:
        con.close()
    return stats


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=QUEUE_ROOT)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(name)s: %(message)s")
    stats = run(args.root)
    print(dict(stats), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
