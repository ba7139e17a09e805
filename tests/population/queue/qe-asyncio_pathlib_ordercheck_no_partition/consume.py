"""consume.py — asyncio file-queue consumer.

A handful of worker coroutines share one asyncio.Queue of inbox names. Blocking file
operations run in threads (asyncio.to_thread); the SQLite connection is only used from
the event-loop thread, so it never crosses threads.
"""
from __future__ import annotations

import asyncio
import json
import os
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(os.environ.get("QUEUE_ROOT", "/root/q"))
INBOX, PROCESSING, DONE, ERROR = (ROOT / d for d in ("inbox", "processing", "done", "error"))
REQUIRED = ("msg_id", "order_no", "seq", "amount")
WORKERS = 4


def classify(raw: bytes) -> tuple[str | None, dict | None]:
    try:
        msg = json.loads(raw.decode("utf-8"))
    except ValueError:                                   # JSONDecodeError and UnicodeDecodeError
        return "parse", None
    if not isinstance(msg, dict):
        return "parse", None
    if any(msg.get(k) is None for k in REQUIRED):
        return "missing-field", None
    return None, msg


def inbox_names() -> list[str]:
    with os.scandir(INBOX) as it:
        return sorted(e.name for e in it if e.is_file(follow_symlinks=False))


async def worker(names: asyncio.Queue[str], db: sqlite3.Connection, stats: dict[str, int]) -> None:
    while True:
        try:
            name = names.get_nowait()
        except asyncio.QueueEmpty:
            return
        claimed = PROCESSING / name
        try:
            await asyncio.to_thread((INBOX / name).rename, claimed)
        except FileNotFoundError:
            continue                                     # another consumer won the rename
        raw = await asyncio.to_thread(claimed.read_bytes)
        reason, msg = classify(raw)
        if reason is not None:
            await asyncio.to_thread(claimed.rename, ERROR / name)
            print(f"error\t{name}\t{reason}")
            stats["error"] += 1
            continue
        with db:
            cur = db.execute(
                "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) "
                "VALUES (:msg_id, :order_no, :seq, :amount, :at) ON CONFLICT (msg_id) DO NOTHING",
                {**{k: msg[k] for k in REQUIRED}, "at": datetime.now(timezone.utc).isoformat()},
            )
        if cur.rowcount == 0:
            print(f"dup\t{name}\t{msg['msg_id']}")
            stats["dup"] += 1
        await asyncio.to_thread(claimed.rename, DONE / name)
        stats["done"] += 1


async def main() -> None:
    db = sqlite3.connect(ROOT / "ledger.db", timeout=30)
    with db:
        db.execute(
            """CREATE TABLE IF NOT EXISTS processed (
                   msg_id       TEXT PRIMARY KEY,
                   order_no     TEXT,
                   seq          INTEGER,
                   amount       REAL,
                   processed_at TEXT NOT NULL
               )"""
        )
    names: asyncio.Queue[str] = asyncio.Queue()
    for n in inbox_names():
        names.put_nowait(n)
    stats = {"done": 0, "error": 0, "dup": 0}
    await asyncio.gather(*(worker(names, db, stats) for _ in range(WORKERS)))
    db.close()
    print(f"summary\tdone={stats['done']}\terror={stats['error']}\tdup={stats['dup']}")


if __name__ == "__main__":
    asyncio.run(main())
