#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""파일 큐 소비자 (queue lab, step 3).

  inbox/ --rename--> processing/ --read--> ledger.db --rename--> done/ | error/

* 멱등성: processed.msg_id 에 UNIQUE INDEX, INSERT ... ON CONFLICT DO NOTHING RETURNING
* 독약 메시지: parse / missing-field 는 error/ 로 (inbox 로 되돌리지 않음)
* 파일은 역순(이름 내림차순)으로 처리 -- 순서는 결과에 영향이 없어야 하므로 일부러 바꿔 봄
"""
from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

REQUIRED = ("msg_id", "order_no", "seq", "amount")

SCHEMA = """
CREATE TABLE IF NOT EXISTS processed (
    msg_id       TEXT    NOT NULL,
    order_no     TEXT    NOT NULL,
    seq          INTEGER NOT NULL,
    amount       NUMERIC NOT NULL,
    currency     TEXT,
    created_at   TEXT,
    processed_at INTEGER NOT NULL            -- unix epoch seconds
);
CREATE UNIQUE INDEX IF NOT EXISTS ux_processed_msg_id ON processed (msg_id);
CREATE VIEW IF NOT EXISTS order_summary AS
    SELECT order_no, COUNT(*) AS n, MIN(seq) AS first_seq, MAX(seq) AS last_seq, SUM(amount) AS total
      FROM processed GROUP BY order_no;
"""


@dataclass
class Run:
    root: Path
    inserted: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)

    def d(self, name: str) -> Path:
        return self.root / name


def check(raw: bytes) -> tuple[str | None, dict]:
    """(reason, message); reason None = 정상."""
    try:
        msg = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError):
        return "parse", {}
    if type(msg) is not dict:
        return "parse", {}
    if [k for k in REQUIRED if msg.get(k) is None]:
        return "missing-field", msg
    return None, msg


def plain(v):
    return v if v is None or isinstance(v, (str, int, float)) else json.dumps(v, ensure_ascii=False)


def setup(db: Path) -> sqlite3.Connection:
    con = sqlite3.connect(db, timeout=60, isolation_level=None)  # autocommit; explicit BEGIN below
    for _ in range(100):
        try:
            con.executescript(SCHEMA)
            return con
        except sqlite3.OperationalError as exc:   # schema being created by a twin consumer
            if "locked" not in str(exc):
                raise
            time.sleep(0.05)
    raise SystemExit("ledger.db stays locked")


def run(r: Run) -> None:
    for sub in ("inbox", "processing", "done", "error"):
        r.d(sub).mkdir(parents=True, exist_ok=True)
    con = setup(r.d("ledger.db"))
    while True:
        names = sorted((p.name for p in r.d("inbox").iterdir() if p.is_file()), reverse=True)
        if not names:
            break
        for name in names:
            work = r.d("processing") / name
            try:
                (r.d("inbox") / name).rename(work)
            except FileNotFoundError:
                continue                    # 다른 소비자가 먼저 가져감
            reason, msg = check(work.read_bytes())
            if reason:
                work.rename(r.d("error") / name)
                r.errors.append((name, reason))
                continue
            got = con.execute(
                "INSERT INTO processed (msg_id, order_no, seq, amount, currency, created_at, processed_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (msg_id) DO NOTHING RETURNING msg_id",
                tuple(plain(msg.get(k)) for k in (*REQUIRED, "currency", "created_at")) + (int(time.time()),),
            ).fetchall()
            (r.inserted if got else r.ignored).append(str(msg["msg_id"]))
            work.rename(r.d("done") / name)
    con.close()


def main() -> int:
    ap = argparse.ArgumentParser(description="queue consumer")
    ap.add_argument("root", nargs="?", type=Path, default=Path("/root/q"))
    r = Run(ap.parse_args().root)
    run(r)
    print(f"inserted={len(r.inserted)} ignored={len(r.ignored)} error={len(r.errors)}")
    for name, reason in sorted(r.errors):
        print(f"  error {name} {reason}")
    for mid in sorted(set(r.ignored)):
        print(f"  dup {mid}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
