"""consume.py -- directory-queue consumer that lands messages into ledger.db

usage: python3 consume.py [--queue DIR] [--db FILE] [--no-reports]

dedup is done by the PRIMARY KEY (INSERT ... ON CONFLICT DO NOTHING RETURNING),
never by a SELECT-then-INSERT.
"""
import argparse
import csv
import json
import os
import sqlite3
import tempfile
import time

REQUIRED_FIELDS = ["msg_id", "order_no", "seq", "amount"]

DDL = [
    # STRICT: TEXT columns really hold text. seq/amount come from JSON numbers -> ANY keeps them as sent.
    """CREATE TABLE IF NOT EXISTS processed (
           msg_id       TEXT    PRIMARY KEY,
           order_no     TEXT    NOT NULL,
           seq          ANY     NOT NULL,
           amount       ANY     NOT NULL,
           processed_at INTEGER NOT NULL CHECK (processed_at > 0)   -- epoch millis
       ) STRICT""",
    """CREATE TABLE IF NOT EXISTS duplicates (
           msg_id  TEXT    NOT NULL,
           file    TEXT    NOT NULL,
           seen_at INTEGER NOT NULL
       ) STRICT""",
    """CREATE TABLE IF NOT EXISTS rejects (
           file    TEXT    NOT NULL,
           reason  TEXT    NOT NULL CHECK (reason IN ('parse', 'missing-field')),
           seen_at INTEGER NOT NULL
       ) STRICT""",
]


def epoch_ms():
    return int(time.time() * 1000)


def parse_args():
    ap = argparse.ArgumentParser(description="file queue consumer")
    ap.add_argument("--queue", default="/root/q", help="queue root (default /root/q)")
    ap.add_argument("--db", default=None, help="sqlite file (default QUEUE/ledger.db)")
    ap.add_argument("--no-reports", action="store_true", help="do not rewrite dup.txt / error.csv")
    return ap.parse_args()


def validate(raw):
    try:
        doc = json.loads(raw)
    except ValueError:                      # JSONDecodeError and UnicodeDecodeError are ValueErrors
        return None, "parse"
    if type(doc) is not dict:               # [], "x", 42, null: not a message
        return None, "parse"
    if any(doc.get(f) is None for f in REQUIRED_FIELDS):
        return None, "missing-field"
    return doc, None


def write_atomic(path, rows, header=None):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    with os.fdopen(fd, "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        if header:
            w.writerow(header)
        w.writerows(rows)
    os.replace(tmp, path)


def main():
    args = parse_args()
    q = args.queue
    inbox, processing, done, error = (os.path.join(q, d) for d in ("inbox", "processing", "done", "error"))
    for d in (inbox, processing, done, error):
        os.makedirs(d, exist_ok=True)

    db = sqlite3.connect(args.db or os.path.join(q, "ledger.db"), timeout=30)
    for stmt in DDL:
        with db:
            db.execute(stmt)

    counts = {"done": 0, "error": 0, "dup": 0}
    while True:
        names = sorted(e.name for e in os.scandir(inbox) if e.is_file())
        if not names:
            break
        for name in names:
            work = os.path.join(processing, name)
            try:
                os.rename(os.path.join(inbox, name), work)
            except FileNotFoundError:
                continue                    # claimed by someone else
            with open(work, "rb") as fh:
                doc, reason = validate(fh.read())
            with db:                        # one transaction per message
                if reason:
                    db.execute("INSERT INTO rejects VALUES (?, ?, ?)", (name, reason, epoch_ms()))
                else:
                    inserted = db.execute(
                        "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) "
                        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (msg_id) DO NOTHING RETURNING msg_id",
                        (doc["msg_id"], doc["order_no"], doc["seq"], doc["amount"], epoch_ms()),
                    ).fetchall()
                    if not inserted:
                        db.execute("INSERT INTO duplicates VALUES (?, ?, ?)", (doc["msg_id"], name, epoch_ms()))
                        counts["dup"] += 1
            os.rename(work, os.path.join(error if reason else done, name))
            counts["error" if reason else "done"] += 1

    if not args.no_reports:
        write_atomic(os.path.join(q, "dup.txt"),
                     db.execute("SELECT DISTINCT msg_id FROM duplicates ORDER BY msg_id").fetchall())
        write_atomic(os.path.join(q, "error.csv"),
                     db.execute("SELECT file, reason FROM rejects GROUP BY file ORDER BY file").fetchall(),
                     header=["file", "reason"])
    db.close()
    print("done={done} error={error} duplicates_ignored={dup}".format(**counts))


if __name__ == "__main__":
    main()
