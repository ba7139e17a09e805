#!/usr/bin/env python3
"""Write dup.txt and error.csv from what consume.py left behind in done/ and error/."""
from __future__ import annotations

import csv
from collections import Counter

from queue_common import QUEUE_ROOT, classify


def main() -> None:
    done = QUEUE_ROOT / "done"
    error = QUEUE_ROOT / "error"

    seen = Counter(classify(p.read_bytes()).message["msg_id"] for p in done.iterdir() if p.is_file())
    dups = sorted(str(mid) for mid, n in seen.items() if n > 1)
    (QUEUE_ROOT / "dup.txt").write_text("\n".join(dups), encoding="utf-8")

    with open(QUEUE_ROOT / "error.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["file", "reason"])
        for p in sorted(error.iterdir()):
            if p.is_file():
                w.writerow([p.name, classify(p.read_bytes()).reason])


if __name__ == "__main__":
    main()
