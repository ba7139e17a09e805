#!/usr/bin/env python3
# -*- coding: utf-8 -*-
# consume.py — 디렉터리 큐 소비자
#
#   inbox/ ──rename──▶ processing/ ──검사──▶ ledger.db ──rename──▶ done/
#                                     └────────(불량)──────────▶ error/
#
# 표준에러로 한 줄씩 남긴다 (lay 에서 dup.txt / error.csv 만들 때 씀):
#   OK  <파일> <msg_id>
#   DUP <파일> <msg_id>
#   ERR <파일> <사유>
from __future__ import annotations

import json
import os
import sqlite3
import sys

ROOT = "/root/q"
DIRS = {name: os.path.join(ROOT, name) for name in ("inbox", "processing", "done", "error")}
REQUIRED = ("msg_id", "order_no", "seq", "amount")


def log(*parts: object) -> None:
    print(*parts, file=sys.stderr, flush=True)


def open_ledger() -> sqlite3.Connection:
    con = sqlite3.connect(os.path.join(ROOT, "ledger.db"), timeout=30)
    con.execute(
        """
        CREATE TABLE IF NOT EXISTS processed (
            msg_id        TEXT    NOT NULL,
            order_no      TEXT    NOT NULL,
            seq           INTEGER NOT NULL,
            amount        NUMERIC NOT NULL,
            processed_at  TEXT    NOT NULL DEFAULT CURRENT_TIMESTAMP,
            UNIQUE (msg_id)
        )
        """
    )
    con.commit()
    return con


def check(raw: bytes) -> tuple[dict | None, str | None]:
    """정상이면 (메시지, None), 아니면 (None, 'parse' | 'missing-field')."""
    try:
        msg = json.loads(raw)
    except (ValueError, RecursionError):  # JSONDecodeError·UnicodeDecodeError 둘 다 ValueError
        return None, "parse"
    if not isinstance(msg, dict):
        return None, "parse"
    if any(msg.get(k) is None for k in REQUIRED):  # 키가 없거나 null → 누락 (0, "" 은 값)
        return None, "missing-field"
    return msg, None


def main() -> int:
    for path in DIRS.values():
        os.makedirs(path, exist_ok=True)
    con = open_ledger()

    for name in sorted(os.listdir(DIRS["inbox"])):
        if not os.path.isfile(os.path.join(DIRS["inbox"], name)):
            continue
        work = os.path.join(DIRS["processing"], name)
        try:
            os.rename(os.path.join(DIRS["inbox"], name), work)  # 선점
        except FileNotFoundError:
            continue  # 다른 소비자가 먼저 가져감

        with open(work, "rb") as fh:
            msg, reason = check(fh.read())

        if reason is not None:
            os.rename(work, os.path.join(DIRS["error"], name))
            log("ERR", name, reason)
            continue

        with con:
            cur = con.execute(
                "INSERT INTO processed (msg_id, order_no, seq, amount) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (msg_id) DO NOTHING",
                (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"]),
            )
        log("OK " if cur.rowcount == 1 else "DUP", name, msg["msg_id"])
        os.rename(work, os.path.join(DIRS["done"], name))

    con.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
