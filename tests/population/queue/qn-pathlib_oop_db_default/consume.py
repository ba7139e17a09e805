#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""파일 큐 소비자 — FileQueue (디렉터리) + Ledger (sqlite) 두 클래스로 나눈 버전."""
from __future__ import annotations

import json
import os
import sqlite3
import sys
from pathlib import Path
from typing import Iterator


class FileQueue:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.inbox = root / "inbox"
        self.processing = root / "processing"
        self.done = root / "done"
        self.error = root / "error"
        for d in (self.inbox, self.processing, self.done, self.error):
            d.mkdir(parents=True, exist_ok=True)

    def claims(self) -> Iterator[Path]:
        """Rename inbox/x -> processing/x, one file at a time. Losing the race to
        another consumer just means the file is not ours."""
        while True:
            pending = sorted(p for p in self.inbox.iterdir() if p.is_file())
            if not pending:
                return
            mine = 0
            for p in pending:
                target = self.processing / p.name
                try:
                    p.rename(target)
                except FileNotFoundError:
                    continue
                mine += 1
                yield target
            if mine == 0:
                return

    def finish(self, work: Path, ok: bool) -> None:
        work.rename((self.done if ok else self.error) / work.name)


class Ledger:
    SCHEMA = """
        CREATE TABLE IF NOT EXISTS processed (
            msg_id       TEXT NOT NULL PRIMARY KEY,
            order_no     TEXT NOT NULL,
            seq          INTEGER NOT NULL,
            amount       REAL NOT NULL,
            processed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        )"""

    def __init__(self, path: Path) -> None:
        self.con = sqlite3.connect(path, timeout=30, isolation_level=None)
        self.con.execute(self.SCHEMA)

    def record(self, msg: dict) -> bool:
        """True when the row is new, False when msg_id was already there."""
        self.con.execute("BEGIN IMMEDIATE")
        try:
            cur = self.con.execute(
                "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount) "
                "VALUES (:msg_id, :order_no, :seq, :amount)", msg)
            self.con.execute("COMMIT")
        except BaseException:
            self.con.execute("ROLLBACK")
            raise
        return cur.rowcount == 1

    def close(self) -> None:
        self.con.close()


REQUIRED = ("msg_id", "order_no", "seq", "amount")


def classify(work: Path) -> tuple[str | None, dict | None]:
    try:
        msg = json.loads(work.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return "parse", None
    if not isinstance(msg, dict):
        return "parse", None
    if any(msg.get(k) is None for k in REQUIRED):
        return "missing-field", None
    return None, msg


class Report:
    """error.csv (append) and dup.txt (sorted union), next to the queue."""

    def __init__(self, root: Path) -> None:
        self.error_csv = root / "error.csv"
        self.dup_txt = root / "dup.txt"
        self.dups: set[str] = set()

    def error(self, name: str, reason: str) -> None:
        new = not self.error_csv.exists() or self.error_csv.stat().st_size == 0
        with self.error_csv.open("a", encoding="utf-8", newline="") as fh:
            if new:
                fh.write("file,reason\n")
            fh.write(f"{name},{reason}\n")

    def duplicate(self, msg_id: str) -> None:
        self.dups.add(str(msg_id))

    def flush(self) -> None:
        if not self.dups:
            return
        old = set()
        if self.dup_txt.exists():
            old = {l.strip() for l in self.dup_txt.read_text(encoding="utf-8").splitlines() if l.strip()}
        tmp = self.dup_txt.with_name(f".dup.txt.{os.getpid()}")
        tmp.write_text("".join(f"{m}\n" for m in sorted(old | self.dups)), encoding="utf-8")
        tmp.replace(self.dup_txt)


def main() -> int:
    root = Path("/root/q")
    queue = FileQueue(root)
    ledger = Ledger(root / "ledger.db")
    report = Report(root)
    try:
        for work in queue.claims():
            reason, msg = classify(work)
            if reason is not None:
                queue.finish(work, ok=False)
                report.error(work.name, reason)
                print(f"[error] {work.name}: {reason}")
                continue
            if not ledger.record(msg):
                report.duplicate(msg["msg_id"])
                print(f"[dup]   {work.name}: {msg['msg_id']}")
            queue.finish(work, ok=True)
    finally:
        ledger.close()
        report.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
