"""consume.py: inbox -> processing -> (ledger.db) -> done | error"""
from __future__ import annotations

import json
import os
import sqlite3
import sys
from dataclasses import dataclass

Q = "/root/q"


@dataclass(frozen=True)
class Message:
    msg_id: str
    order_no: str
    seq: int
    amount: float

    @classmethod
    def from_bytes(cls, raw: bytes) -> "Message":
        doc = json.loads(raw)                       # ValueError -> parse
        if not isinstance(doc, dict):
            raise ValueError("top level is not an object")
        values = {k: doc.get(k) for k in ("msg_id", "order_no", "seq", "amount")}
        missing = [k for k, v in values.items() if v is None]
        if missing:
            raise KeyError(",".join(missing))      # KeyError -> missing-field
        return cls(**values)


DDL = """
CREATE TABLE IF NOT EXISTS processed (
    msg_id       VARCHAR(40) NOT NULL,
    order_no     VARCHAR(40) NOT NULL,
    seq          INTEGER     NOT NULL,
    amount       NUMERIC     NOT NULL,
    processed_at TIMESTAMP   NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT pk_processed PRIMARY KEY (msg_id)
);
CREATE TABLE IF NOT EXISTS dead_letter (
    file      TEXT NOT NULL,
    reason    TEXT NOT NULL,
    logged_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);
"""


def main() -> int:
    inbox, processing, done, error = (os.path.join(Q, d) for d in ("inbox", "processing", "done", "error"))
    for d in (inbox, processing, done, error):
        os.makedirs(d, exist_ok=True)
    con = sqlite3.connect(os.path.join(Q, "ledger.db"), timeout=30)
    con.executescript(DDL)
    ignored = []
    while names := sorted(n for n in os.listdir(inbox) if os.path.isfile(os.path.join(inbox, n))):
        for name in names:
            claimed = os.path.join(processing, name)
            try:
                os.rename(os.path.join(inbox, name), claimed)
            except FileNotFoundError:
                continue
            with open(claimed, "rb") as fh:
                raw = fh.read()
            try:
                m = Message.from_bytes(raw)
            except KeyError:
                reason = "missing-field"
            except ValueError:
                reason = "parse"
            else:
                reason = None
            with con:
                if reason:
                    con.execute("INSERT INTO dead_letter (file, reason) VALUES (?, ?)", (name, reason))
                else:
                    cur = con.execute(
                        "INSERT INTO processed (msg_id, order_no, seq, amount) VALUES (?, ?, ?, ?) "
                        "ON CONFLICT (msg_id) DO NOTHING",
                        (m.msg_id, m.order_no, m.seq, m.amount))
                    if cur.rowcount == 0:
                        ignored.append(m.msg_id)
            os.rename(claimed, os.path.join(error if reason else done, name))
    con.close()
    for mid in sorted(ignored):
        print("duplicate ignored:", mid)
    return 0


if __name__ == "__main__":
    sys.exit(main())
