#!/usr/bin/env python3
"""Thin shell around SQL.

Python only does what SQL cannot: claim a file by rename, read its bytes, move it on.
Validation (parse / missing-field / ok), de-duplication and bookkeeping are SQL.
"""
import os
import sqlite3

Q = "/root/q"
INBOX, PROCESSING, DONE, ERROR = (os.path.join(Q, d) for d in ("inbox", "processing", "done", "error"))
DB = os.path.join(Q, "ledger.db")

DDL = """
CREATE TABLE IF NOT EXISTS processed (
    msg_id        TEXT     NOT NULL,
    order_no      TEXT,
    seq           INTEGER,
    amount        NUMERIC,
    processed_at  TEXT     NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    CONSTRAINT pk_processed PRIMARY KEY (msg_id)
);
CREATE TABLE IF NOT EXISTS rejected (
    file          TEXT     NOT NULL,
    reason        TEXT     NOT NULL CHECK (reason IN ('parse', 'missing-field')),
    rejected_at   TEXT     NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE TABLE IF NOT EXISTS ignored_duplicate (
    msg_id        TEXT     NOT NULL,
    file          TEXT     NOT NULL,
    ignored_at    TEXT     NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
"""

# json_type(x, path) is NULL when the key is absent and 'null' when the value is JSON null:
# both count as missing. json_valid() is strict RFC 8259 in this SQLite.
VERDICT = """
SELECT CASE
         WHEN :raw IS NULL
           OR NOT json_valid(:raw)
           OR json_type(:raw) <> 'object'                       THEN 'parse'
         WHEN coalesce(json_type(:raw, '$.msg_id'),   'null') = 'null'
           OR coalesce(json_type(:raw, '$.order_no'), 'null') = 'null'
           OR coalesce(json_type(:raw, '$.seq'),      'null') = 'null'
           OR coalesce(json_type(:raw, '$.amount'),   'null') = 'null' THEN 'missing-field'
         ELSE 'ok'
       END
"""

# INSERT ... SELECT needs the WHERE true before ON CONFLICT (parser ambiguity with joins).
LOAD = """
INSERT INTO processed (msg_id, order_no, seq, amount)
SELECT json_extract(:raw, '$.msg_id'),
       json_extract(:raw, '$.order_no'),
       json_extract(:raw, '$.seq'),
       json_extract(:raw, '$.amount')
WHERE true
ON CONFLICT (msg_id) DO NOTHING
"""

NOTE_DUP = """
INSERT INTO ignored_duplicate (msg_id, file)
VALUES (json_extract(:raw, '$.msg_id'), :file)
"""

NOTE_REJECT = "INSERT INTO rejected (file, reason) VALUES (:file, :reason)"


def read_text(path):
    with open(path, "rb") as fh:
        data = fh.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None          # not UTF-8 -> cannot be JSON -> verdict 'parse'


def main():
    con = sqlite3.connect(DB, timeout=60)
    con.executescript(DDL)

    for name in sorted(os.listdir(INBOX)):
        src = os.path.join(INBOX, name)
        if not os.path.isfile(src):
            continue
        claimed = os.path.join(PROCESSING, name)
        try:
            os.rename(src, claimed)              # the claim
        except FileNotFoundError:
            continue                             # another consumer got it first

        args = {"raw": read_text(claimed), "file": name}
        with con:                                # one transaction per message
            verdict = con.execute(VERDICT, args).fetchone()[0]
            if verdict == "ok":
                if con.execute(LOAD, args).rowcount == 0:
                    con.execute(NOTE_DUP, args)
            else:
                con.execute(NOTE_REJECT, {"file": name, "reason": verdict})

        os.rename(claimed, os.path.join(DONE if verdict == "ok" else ERROR, name))

    con.close()


if __name__ == "__main__":
    main()
