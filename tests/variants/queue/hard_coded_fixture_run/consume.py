#!/usr/bin/env python3
"""Step 3, the result of the fixture run written down (the consumer "worked" once)."""

import os
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

Q = Path(os.environ.get("LAB_ROOT", "/root")) / "q"
WHERE = {
    "msg-0001.json": "done",
    "msg-0002.json": "done",
    "msg-0003.json": "done",
    "msg-0004.json": "done",
    "msg-0005.json": "done",
    "msg-0006.json": "error",
    "msg-0007.json": "done",
    "msg-0008.json": "done",
    "msg-0009.json": "done",
    "msg-0010.json": "done",
    "msg-0011.json": "done",
    "msg-0012.json": "done",
    "msg-0013.json": "done",
    "msg-0014.json": "done",
    "msg-0015.json": "done",
    "msg-0016.json": "done",
    "msg-0017.json": "error",
    "msg-0018.json": "done",
    "msg-0019.json": "done",
    "msg-0020.json": "done",
}
ROWS = [
    ("m-a3e018377f", "ORD-18700", 2, 61300),
    ("m-5297a97a7a", "ORD-18699", 9, 164200),
    ("m-fdfa3080ed", "ORD-18700", 4, 4100),
    ("m-a4a1542a9f", "ORD-18699", 1, 131500),
    ("m-16a224edf6", "ORD-18700", 1, 85500),
    ("m-31fa2f37ed", "ORD-18699", 6, 491200),
    ("m-d6c3275a32", "ORD-18699", 3, 167200),
    ("m-84fed5bf41", "ORD-18699", 5, 383400),
    ("m-6a1f22e0b0", "ORD-18699", 2, 37600),
    ("m-b42fab055b", "ORD-18699", 7, 459100),
    ("m-c586bd7b88", "ORD-18700", 3, 445400),
    ("m-74051d4ed7", "ORD-18700", 5, 295300),
    ("m-ab8bdb3938", "ORD-18699", 10, 411400),
    ("m-90684fd7c8", "ORD-18699", 8, 363400),
    ("m-efc51ada16", "ORD-18699", 4, 332900),
]
DUPLICATES = ["m-5297a97a7a", "m-74051d4ed7", "m-ab8bdb3938"]
ERRORS = {"msg-0006.json": "parse", "msg-0017.json": "missing-field"}


def main():
    for name, dest in sorted(WHERE.items()):
        src = Q / "inbox" / name
        if not src.exists():
            continue
        os.rename(src, Q / "processing" / name)
        os.rename(Q / "processing" / name, Q / dest / name)
    db = sqlite3.connect(Q / "ledger.db", timeout=30)
    now = datetime.now(timezone.utc).isoformat()
    with db:
        db.execute(
            "CREATE TABLE IF NOT EXISTS processed (msg_id TEXT PRIMARY KEY, order_no TEXT, "
            "seq INTEGER, amount INTEGER, processed_at TEXT)"
        )
        db.executemany(
            "INSERT OR IGNORE INTO processed VALUES (?, ?, ?, ?, ?)",
            [row + (now,) for row in ROWS],
        )
    (Q / "dup.txt").write_text("".join(i + "\n" for i in DUPLICATES))
    (Q / "error.csv").write_text("file,reason\n" + "".join(f"{n},{r}\n" for n, r in sorted(ERRORS.items())))


if __name__ == "__main__":
    main()
