#!/usr/bin/env python3
"""Queue consumer: inbox -> processing -> done | error, ledger = /root/q/ledger.db."""
import json
import os
import sqlite3
from datetime import datetime, timezone

Q = "/root/q"
REQUIRED = ("msg_id", "order_no", "seq", "amount")


def move(src_dir, dst_dir, name):
    os.rename(os.path.join(Q, src_dir, name), os.path.join(Q, dst_dir, name))


def main():
    con = sqlite3.connect(os.path.join(Q, "ledger.db"), timeout=30)
    con.executescript("""
        CREATE TABLE IF NOT EXISTS processed (
            msg_id       TEXT    NOT NULL,
            order_no     TEXT    NOT NULL,
            seq          INTEGER NOT NULL,
            amount       INTEGER NOT NULL,
            processed_at TEXT    NOT NULL,
            PRIMARY KEY (msg_id)
        );
        CREATE INDEX IF NOT EXISTS processed_order_seq ON processed (order_no, seq);
    """)
    inbox = os.path.join(Q, "inbox")
    while True:
        names = sorted(n for n in os.listdir(inbox) if os.path.isfile(os.path.join(inbox, n)))
        if not names:
            break
        for name in names:
            try:
                move("inbox", "processing", name)
            except FileNotFoundError:
                continue
            with open(os.path.join(Q, "processing", name), "rb") as fh:
                raw = fh.read()
            try:
                msg = json.loads(raw)
                if not isinstance(msg, dict):
                    raise ValueError("not an object")
            except ValueError:
                move("processing", "error", name)
                print(f"{name}\terror\tparse")
                continue
            if any(msg.get(k) is None for k in REQUIRED):
                move("processing", "error", name)
                print(f"{name}\terror\tmissing-field")
                continue
            row = [json.dumps(msg[k]) if isinstance(msg[k], (dict, list)) else msg[k] for k in REQUIRED]
            before = con.total_changes
            con.execute(
                "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (msg_id) DO NOTHING",
                row + [datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")],
            )
            con.commit()
            move("processing", "done", name)
            print(f"{name}\t{'new' if con.total_changes > before else 'dup'}\t{row[0]}")
    con.close()


if __name__ == "__main__":
    main()
