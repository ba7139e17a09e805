#!/usr/bin/env python3
"""File-queue consumer. Python only moves files around; SQLite does the thinking.

- json_valid / json_type decide 'parse' vs 'missing-field' vs ok
- INSERT ... ON CONFLICT(msg_id) DO NOTHING is the idempotency guard
- stdout gets one tab-separated line per event (dup / error) so I can
  build dup.txt and error.csv with sort/awk afterwards
"""
import os
import sqlite3

Q = "/root/q"
INBOX = os.path.join(Q, "inbox")
PROCESSING = os.path.join(Q, "processing")
DONE = os.path.join(Q, "done")
ERROR = os.path.join(Q, "error")

DDL = """
CREATE TABLE IF NOT EXISTS processed (
    msg_id       TEXT    NOT NULL PRIMARY KEY,
    order_no     TEXT    NOT NULL,
    seq          INTEGER NOT NULL,
    amount       NUMERIC NOT NULL,
    processed_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) WITHOUT ROWID
"""

# a required field counts as missing when absent or JSON null
CLASSIFY = """
SELECT CASE
    WHEN NOT json_valid(:doc)             THEN 'parse'
    WHEN json_type(:doc) <> 'object'      THEN 'parse'
    WHEN ifnull(json_type(:doc, '$.msg_id'),   'null') = 'null'
      OR ifnull(json_type(:doc, '$.order_no'), 'null') = 'null'
      OR ifnull(json_type(:doc, '$.seq'),      'null') = 'null'
      OR ifnull(json_type(:doc, '$.amount'),   'null') = 'null'
                                          THEN 'missing-field'
    ELSE 'ok'
END
"""

INSERT = """
INSERT INTO processed (msg_id, order_no, seq, amount)
VALUES (json_extract(:doc, '$.msg_id'), json_extract(:doc, '$.order_no'),
        json_extract(:doc, '$.seq'),    json_extract(:doc, '$.amount'))
ON CONFLICT (msg_id) DO NOTHING
"""


def main():
    db = sqlite3.connect(os.path.join(Q, "ledger.db"), timeout=60, isolation_level=None)
    db.execute(DDL)
    while True:
        names = sorted(os.listdir(INBOX))
        if not names:
            break
        for name in names:
            work = os.path.join(PROCESSING, name)
            try:
                os.rename(os.path.join(INBOX, name), work)   # claim it
            except FileNotFoundError:
                continue                                      # the other consumer was faster
            with open(work, "rb") as f:
                raw = f.read()
            try:
                doc = raw.decode("utf-8")
            except UnicodeDecodeError:
                doc = None
            verdict = "parse" if doc is None else db.execute(CLASSIFY, {"doc": doc}).fetchone()[0]
            if verdict == "ok":
                cur = db.execute(INSERT, {"doc": doc})
                if cur.rowcount == 0:
                    msg_id = db.execute("SELECT json_extract(?, '$.msg_id')", (doc,)).fetchone()[0]
                    print(f"dup\t{msg_id}\t{name}", flush=True)
                os.rename(work, os.path.join(DONE, name))
            else:
                print(f"error\t{name}\t{verdict}", flush=True)
                os.rename(work, os.path.join(ERROR, name))
    db.close()


if __name__ == "__main__":
    main()
