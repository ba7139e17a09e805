#!/usr/bin/env python3
"""Directory-queue consumer (lab: queue).

inbox -> processing (claim) -> done | error, ledger in SQLite.
Writes dup.txt / error.csv only when asked (--dup-file / --error-csv).
"""
import argparse
import csv
import json
import logging
import shutil
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

REQUIRED = ("msg_id", "order_no", "seq", "amount")
log = logging.getLogger("consume")


class BadMessage(Exception):
    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def load_message(path: Path) -> dict:
    try:
        msg = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        raise BadMessage("parse") from exc
    if not isinstance(msg, dict):
        raise BadMessage("parse")
    if any(msg.get(field) is None for field in REQUIRED):
        raise BadMessage("missing-field")
    return msg


def open_ledger(path: Path) -> sqlite3.Connection:
    con = sqlite3.connect(path, timeout=30)
    con.execute(
        """
        CREATE TABLE IF NOT EXISTS processed (
            msg_id       TEXT PRIMARY KEY,
            order_no     TEXT    NOT NULL,
            seq          INTEGER NOT NULL,
            amount       NUMERIC NOT NULL,
            processed_at TEXT    NOT NULL
        )
        """
    )
    con.commit()
    return con


def run(root: Path):
    inbox, processing, done, error = (root / d for d in ("inbox", "processing", "done", "error"))
    con = open_ledger(root / "ledger.db")
    duplicates, failures = [], []
    for src in sorted(p for p in inbox.iterdir()):
        work = processing / src.name
        try:
            src.rename(work)            # the claim: atomic os.rename, as the lab says
        except FileNotFoundError:
            log.info("%s taken by another consumer", src.name)
            continue
        try:
            msg = load_message(work)
        except BadMessage as bad:
            failures.append((work.name, bad.reason))
            shutil.move(str(work), str(error))
            log.warning("%s -> error (%s)", work.name, bad.reason)
            continue
        with con:
            cur = con.execute(
                "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"],
                 datetime.now(timezone.utc).isoformat()),
            )
        if cur.rowcount == 0:
            duplicates.append(msg["msg_id"])
            log.info("%s duplicate %s ignored", work.name, msg["msg_id"])
        shutil.move(str(work), str(done))
    con.close()
    return duplicates, failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default="/root/q", type=Path)
    ap.add_argument("--dup-file", type=Path)
    ap.add_argument("--error-csv", type=Path)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s %(message)s")
    duplicates, failures = run(args.root)
    if args.dup_file:
        args.dup_file.write_text("".join(f"{m}\n" for m in sorted(set(duplicates))), encoding="utf-8")
    if args.error_csv:
        with args.error_csv.open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(["file", "reason"])
            w.writerows(sorted(failures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
