#!/usr/bin/env python3
"""Writes /root/q/dup.txt and /root/q/error.csv from what is in done/ and error/."""
import csv
import json
from collections import Counter
from pathlib import Path

ROOT = Path("/root/q")


def main() -> None:
    ids = Counter()
    for f in sorted((ROOT / "done").iterdir()):
        ids[json.loads(f.read_bytes())["msg_id"]] += 1
    duplicates = sorted(str(i) for i, n in ids.items() if n > 1)
    (ROOT / "dup.txt").write_text("".join(d + "\n" for d in duplicates), encoding="utf-8")

    with open(ROOT / "error.csv", "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)  # default dialect: \r\n line endings
        writer.writerow(["file", "reason"])
        for f in sorted((ROOT / "error").iterdir()):
            try:
                payload = json.loads(f.read_bytes())
                reason = "missing-field" if isinstance(payload, dict) else "parse"
            except ValueError:
                reason = "parse"
            writer.writerow([f.name, reason])


if __name__ == "__main__":
    main()
