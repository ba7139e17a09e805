#!/usr/bin/env python3
"""consume.py -- file-queue consumer for lab 'queue'.

Pipeline per file:  inbox --rename--> processing --validate--> (ledger.db) --rename--> done | error

* the claim is an atomic os.rename into processing/; losing the race is normal (FileNotFoundError)
* idempotency is the PRIMARY KEY on processed.msg_id (INSERT ... ON CONFLICT DO NOTHING),
  never an application-level "SELECT first" check
* poison messages (unparseable / missing required field) go to error/ and are never retried
* a small thread pool works the inbox; every thread has its own sqlite connection

Configuration: queue.ini next to this file (optional; defaults below).
"""
from __future__ import annotations

import argparse
import configparser
import hashlib
import json
import logging
import os
import sqlite3
import sys
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone

DEFAULTS = {
    "queue": {"base": "/root/q", "inbox": "inbox", "processing": "processing",
              "done": "done", "error": "error"},
    "db": {"path": "/root/q/ledger.db", "busy_timeout_seconds": "60"},
    "consumer": {"workers": "4", "required_fields": "msg_id, order_no, seq, amount"},
    "logging": {"dir": "/root/q/logs", "level": "INFO"},
}

SCHEMA = """
CREATE TABLE IF NOT EXISTS processed (
    msg_id          TEXT PRIMARY KEY,
    order_no        TEXT,
    seq             INTEGER,
    amount          NUMERIC,
    processed_at    TEXT NOT NULL,
    -- extras (nullable: only the four above are required by the contract)
    currency        TEXT,
    created_at      TEXT,
    source_file     TEXT,
    payload_sha256  TEXT,
    run_id          TEXT
);
CREATE INDEX IF NOT EXISTS ix_processed_order_seq ON processed (order_no, seq);

CREATE TABLE IF NOT EXISTS consume_run (
    run_id      TEXT PRIMARY KEY,
    pid         INTEGER,
    started_at  TEXT NOT NULL,
    finished_at TEXT,
    n_done      INTEGER,
    n_error     INTEGER,
    n_duplicate INTEGER
);
CREATE TABLE IF NOT EXISTS dead_letter (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    file        TEXT NOT NULL,
    reason      TEXT NOT NULL CHECK (reason IN ('parse', 'missing-field')),
    detail      TEXT,
    run_id      TEXT,
    at          TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS duplicate_hit (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    msg_id      TEXT NOT NULL,
    file        TEXT NOT NULL,
    run_id      TEXT,
    at          TEXT NOT NULL
);
"""

log = logging.getLogger("consume")


class PoisonMessage(Exception):
    def __init__(self, reason: str, detail: str):
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


@dataclass
class Settings:
    inbox: str
    processing: str
    done: str
    error: str
    db_path: str
    busy_timeout: float
    workers: int
    required: tuple[str, ...]
    log_dir: str
    log_level: str

    @classmethod
    def load(cls, path: str | None) -> "Settings":
        cp = configparser.ConfigParser()
        cp.read_dict(DEFAULTS)
        if path is None:
            path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "queue.ini")
        cp.read(path, encoding="utf-8")          # silently ignored when absent
        q = cp["queue"]
        base = q["base"]
        return cls(
            inbox=os.path.join(base, q["inbox"]),
            processing=os.path.join(base, q["processing"]),
            done=os.path.join(base, q["done"]),
            error=os.path.join(base, q["error"]),
            db_path=cp["db"]["path"],
            busy_timeout=float(cp["db"]["busy_timeout_seconds"]),
            workers=max(1, int(cp["consumer"]["workers"])),
            required=tuple(f.strip() for f in cp["consumer"]["required_fields"].split(",") if f.strip()),
            log_dir=cp["logging"]["dir"],
            log_level=cp["logging"]["level"],
        )


@dataclass
class Counters:
    done: int = 0
    error: int = 0
    duplicate: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, **kw):
        with self.lock:
            for k, v in kw.items():
                setattr(self, k, getattr(self, k) + v)


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def parse(raw: bytes, required: tuple[str, ...]) -> dict:
    try:
        msg = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PoisonMessage("parse", str(exc)) from None
    if not isinstance(msg, dict):
        raise PoisonMessage("parse", f"top-level JSON is {type(msg).__name__}, not an object")
    missing = [f for f in required if msg.get(f) is None]
    if missing:
        raise PoisonMessage("missing-field", ",".join(missing))
    return msg


class Consumer:
    def __init__(self, s: Settings, run_id: str):
        self.s = s
        self.run_id = run_id
        self.counters = Counters()
        self.local = threading.local()

    def db(self) -> sqlite3.Connection:
        con = getattr(self.local, "con", None)
        if con is None:
            con = sqlite3.connect(self.s.db_path, timeout=self.s.busy_timeout)
            self.local.con = con
        return con

    def claim(self, name: str) -> str | None:
        src = os.path.join(self.s.inbox, name)
        dst = os.path.join(self.s.processing, name)
        try:
            os.rename(src, dst)
        except FileNotFoundError:
            log.debug("lost the race for %s", name)
            return None
        return dst

    def handle(self, name: str) -> None:
        path = self.claim(name)
        if path is None:
            return
        with open(path, "rb") as fh:
            raw = fh.read()
        try:
            msg = parse(raw, self.s.required)
        except PoisonMessage as pm:
            with self.db() as con:
                con.execute("INSERT INTO dead_letter (file, reason, detail, run_id, at) VALUES (?,?,?,?,?)",
                            (name, pm.reason, pm.detail, self.run_id, now()))
            os.rename(path, os.path.join(self.s.error, name))
            self.counters.add(error=1)
            log.warning("error/%s  reason=%s (%s)", name, pm.reason, pm.detail)
            return

        with self.db() as con:
            cur = con.execute(
                """INSERT INTO processed (msg_id, order_no, seq, amount, processed_at,
                                          currency, created_at, source_file, payload_sha256, run_id)
                   VALUES (?,?,?,?,?,?,?,?,?,?)
                   ON CONFLICT (msg_id) DO NOTHING""",
                (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"], now(),
                 _scalar(msg.get("currency")), _scalar(msg.get("created_at")), name,
                 hashlib.sha256(raw).hexdigest(), self.run_id))
            inserted = cur.rowcount == 1
            if not inserted:
                con.execute("INSERT INTO duplicate_hit (msg_id, file, run_id, at) VALUES (?,?,?,?)",
                            (str(msg["msg_id"]), name, self.run_id, now()))
        os.rename(path, os.path.join(self.s.done, name))
        self.counters.add(done=1, duplicate=0 if inserted else 1)
        log.info("done/%s  msg_id=%s%s", name, msg["msg_id"], "" if inserted else "  (duplicate, ignored)")


def _scalar(v):
    return v if v is None or isinstance(v, (str, int, float)) else json.dumps(v)


def setup_logging(s: Settings) -> None:
    handlers = [logging.StreamHandler(sys.stderr)]
    try:
        os.makedirs(s.log_dir, exist_ok=True)
        handlers.append(logging.FileHandler(os.path.join(s.log_dir, "consume.log"), encoding="utf-8"))
    except OSError:
        pass
    logging.basicConfig(level=getattr(logging, s.log_level.upper(), logging.INFO),
                        format="%(asctime)s %(process)d %(threadName)s %(levelname)s %(message)s",
                        handlers=handlers)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", help="path to queue.ini (default: next to consume.py)")
    args = ap.parse_args(argv)

    s = Settings.load(args.config)
    setup_logging(s)
    run_id = uuid.uuid4().hex

    con = sqlite3.connect(s.db_path, timeout=s.busy_timeout)
    with con:
        con.executescript(SCHEMA)
    with con:
        con.execute("INSERT INTO consume_run (run_id, pid, started_at) VALUES (?,?,?)",
                    (run_id, os.getpid(), now()))

    consumer = Consumer(s, run_id)
    names = sorted(n for n in os.listdir(s.inbox) if os.path.isfile(os.path.join(s.inbox, n)))
    log.info("run %s: %d file(s) in inbox, %d worker(s)", run_id, len(names), s.workers)
    with ThreadPoolExecutor(max_workers=s.workers, thread_name_prefix="w") as pool:
        for fut in [pool.submit(consumer.handle, n) for n in names]:
            fut.result()

    c = consumer.counters
    with con:
        con.execute("UPDATE consume_run SET finished_at=?, n_done=?, n_error=?, n_duplicate=? WHERE run_id=?",
                    (now(), c.done, c.error, c.duplicate, run_id))
    con.close()
    log.info("run %s finished: done=%d error=%d duplicates=%d", run_id, c.done, c.error, c.duplicate)
    return 0


if __name__ == "__main__":
    sys.exit(main())
