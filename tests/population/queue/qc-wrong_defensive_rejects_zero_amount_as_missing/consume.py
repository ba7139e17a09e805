#!/usr/bin/env python3
# consume.py -- directory queue consumer with DB-enforced idempotency.
# Exit: 0 OK, 2 CRITICAL (db/fs failure), 3 UNKNOWN (layout).
import json
import logging
import os
import sqlite3
import sys
from pathlib import Path

LOG = logging.getLogger("consume")
REQUIRED_FIELDS = ("msg_id", "order_no", "seq", "amount")
ROOT = Path(os.environ.get("LAB_ROOT", "/root")) / "q"


class InvalidMessage(ValueError):
    def __init__(self, reason, detail):
        super().__init__(detail)
        self.reason = reason


def validate(raw: bytes) -> dict:
    try:
        doc = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidMessage("parse", f"JSON decode error: {exc}")
    if not isinstance(doc, dict):
        raise InvalidMessage("parse", f"expected a JSON object, got {type(doc).__name__}")
    for field in REQUIRED_FIELDS:
        if not doc.get(field):
            raise InvalidMessage("missing-field", f"required field '{field}' is missing or empty")
    return doc




def main() -> int:
    logging.basicConfig(stream=sys.stderr, level=logging.DEBUG,
                        format="%(asctime)s %(process)d %(levelname)s %(message)s")
    dirs = {n: ROOT / n for n in ("inbox", "processing", "done", "error")}
    for n, p in dirs.items():
        if not p.is_dir():
            LOG.critical("queue directory %s missing", p)
            return 3
    try:
        con = sqlite3.connect(ROOT / "ledger.db", timeout=60)
        con.execute(
            "CREATE TABLE IF NOT EXISTS processed ("
            " msg_id TEXT PRIMARY KEY NOT NULL,"
            " order_no TEXT NOT NULL,"
            " seq INTEGER NOT NULL,"
            " amount NUMERIC NOT NULL,"
            " processed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f','now')),"
            " source_file TEXT)")
        con.commit()
    except sqlite3.Error as exc:
        LOG.critical("cannot open ledger: %s", exc)
        return 2

    for entry in sorted(dirs["inbox"].iterdir()):
        if not entry.is_file():
            continue
        claimed = dirs["processing"] / entry.name
        try:
            entry.rename(claimed)
        except FileNotFoundError:
            LOG.debug("%s already claimed by another consumer", entry.name)
            continue
        LOG.debug("claimed %s", entry.name)
        try:
            msg = validate(claimed.read_bytes())
        except InvalidMessage as exc:
            claimed.rename(dirs["error"] / entry.name)
            LOG.warning("QUARANTINED %s -> error/ (%s: %s)", entry.name, exc.reason, exc)
            continue
        try:
            with con:
                cur = con.execute(
                    "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at, source_file)"
                    " VALUES (?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%f','now'), ?)",
                    (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"], entry.name))
        except sqlite3.Error as exc:
            LOG.critical("insert failed for %s: %s (file stays in processing/)", entry.name, exc)
            return 2
        if cur.rowcount == 0:
            LOG.info("DUPLICATE msg_id=%s in %s ignored (already in ledger)", msg["msg_id"], entry.name)
        claimed.rename(dirs["done"] / entry.name)
        LOG.info("done %s", entry.name)
    con.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
