#!/usr/bin/env python3
"""consume.py - directory queue consumer (inbox -> processing -> done|error).

Design notes
  * Claim = os.rename(inbox/X, processing/X). Read only after the claim.
  * Runs are serialised with an exclusive flock on <queue>/.consume.lock: a second
    consume.py started at the same time waits, then finds nothing left and exits 0.
    Holding the lock also proves that anything still in processing/ was orphaned by a
    crashed run; such files are put back into inbox/ (the UNIQUE constraint makes the
    re-processing harmless).
  * Idempotency lives in the database (msg_id PRIMARY KEY + INSERT OR IGNORE).
  * dup.txt and error.csv are maintained by the consumer, written atomically.
"""
import csv
import fcntl
import io
import json
import logging
import os
import sqlite3
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

LOG = logging.getLogger("consume")
REQUIRED = ("msg_id", "order_no", "seq", "amount")


class Rejected(Exception):
    """A message that can never be processed (poison)."""

    def __init__(self, reason: str, detail: str):
        super().__init__(f"{reason}: {detail}")
        self.reason = reason


def atomic_write(path: Path, data: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


class Ledger:
    def __init__(self, path: Path):
        self.conn = sqlite3.connect(str(path), timeout=120)
        self.conn.execute(
            """CREATE TABLE IF NOT EXISTS processed (
                   msg_id       TEXT PRIMARY KEY,
                   order_no     TEXT NOT NULL,
                   seq          INTEGER NOT NULL,
                   amount       NUMERIC NOT NULL,
                   processed_at TEXT NOT NULL
               )"""
        )
        self.conn.commit()

    def record(self, msg: dict) -> bool:
        """True if inserted, False if msg_id was already there (duplicate)."""
        with self.conn:
            cur = self.conn.execute(
                "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"],
                 datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")),
            )
        return cur.rowcount == 1

    def close(self):
        self.conn.close()


class QueueConsumer:
    DIRS = ("inbox", "processing", "done", "error")

    def __init__(self, root: Path):
        self.root = root
        self.inbox, self.processing, self.done, self.error = (root / d for d in self.DIRS)
        self.duplicates: list[str] = []
        self.rejected: dict[str, str] = {}

    # -- helpers -------------------------------------------------------------
    def check_layout(self) -> None:
        missing = [str(d) for d in (self.inbox, self.processing, self.done, self.error) if not d.is_dir()]
        if missing:
            raise SystemExit(LOG.critical("queue layout incomplete: %s", ", ".join(missing)) or 3)

    @staticmethod
    def parse(raw: bytes) -> dict:
        try:
            msg = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise Rejected("parse", str(exc)) from None
        if not isinstance(msg, dict):
            raise Rejected("parse", f"top-level JSON value is {type(msg).__name__}, expected object")
        absent = [k for k in REQUIRED if msg.get(k) is None]
        if absent:
            raise Rejected("missing-field", "absent or null: " + ", ".join(absent))
        return msg

    def recover_orphans(self) -> None:
        for orphan in sorted(p for p in self.processing.iterdir() if p.is_file()):
            target = self.inbox / orphan.name
            if target.exists():
                LOG.error("orphan %s also present in inbox; leaving it for an operator", orphan.name)
                continue
            orphan.rename(target)
            LOG.warning("recovered orphan from a crashed run: processing/%s -> inbox/", orphan.name)

    # -- main loop -----------------------------------------------------------
    def run(self, ledger: Ledger) -> None:
        for src in sorted(p for p in self.inbox.iterdir() if p.is_file()):
            claimed = self.processing / src.name
            try:
                src.rename(claimed)
            except FileNotFoundError:
                LOG.info("skip %s: claimed elsewhere", src.name)
                continue
            try:
                msg = self.parse(claimed.read_bytes())
            except Rejected as rej:
                claimed.rename(self.error / src.name)
                self.rejected[src.name] = rej.reason
                LOG.warning("REJECT %s -> error/ (%s)", src.name, rej)
                continue
            if ledger.record(msg):
                LOG.info("OK %s msg_id=%s", src.name, msg["msg_id"])
            else:
                self.duplicates.append(str(msg["msg_id"]))
                LOG.info("DUP %s msg_id=%s already processed, ignored", src.name, msg["msg_id"])
            claimed.rename(self.done / src.name)

    def write_reports(self) -> None:
        # error.csv: keep earlier rows whose file is still in error/, add this run's
        rows: dict[str, str] = {}
        csv_path = self.root / "error.csv"
        if csv_path.exists():
            with csv_path.open(encoding="utf-8-sig", newline="") as fh:
                for row in csv.DictReader(fh):
                    if row.get("file") and (self.error / row["file"]).is_file():
                        rows[row["file"]] = row["reason"]
        rows.update(self.rejected)
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["file", "reason"])
        for name in sorted(rows):
            w.writerow([name, rows[name]])
        atomic_write(csv_path, buf.getvalue())
        if self.duplicates:
            dup_path = self.root / "dup.txt"
            old = set(dup_path.read_text(encoding="utf-8").split()) if dup_path.exists() else set()
            atomic_write(dup_path, "".join(f"{m}\n" for m in sorted(old | set(self.duplicates))))


def main() -> int:
    logging.basicConfig(stream=sys.stderr, level=logging.INFO,
                        format="%(asctime)s [%(process)d] %(levelname)-8s %(message)s")
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(os.environ.get("LAB_ROOT", "/root")) / "q")
    consumer = QueueConsumer(root)
    consumer.check_layout()
    with open(root / ".consume.lock", "w") as lock:
        LOG.info("waiting for run lock %s", lock.name)
        fcntl.flock(lock, fcntl.LOCK_EX)
        LOG.info("run lock acquired")
        consumer.recover_orphans()
        ledger = Ledger(root / "ledger.db")
        try:
            consumer.run(ledger)
        finally:
            ledger.close()
            consumer.write_reports()
        leftovers = list(consumer.processing.iterdir())
        if leftovers:
            LOG.critical("processing/ not empty after run: %s", leftovers)
            return 2
    LOG.info("run complete: %d rejected, %d duplicates", len(consumer.rejected), len(consumer.duplicates))
    return 0


if __name__ == "__main__":
    sys.exit(main())
