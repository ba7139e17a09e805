#!/usr/bin/env python3
"""큐 소비자: inbox -> processing -> done / error, 정상 메시지는 ledger.db 의 processed 로."""

import csv
import json
import os
import shutil
import sqlite3

LAB_ROOT = os.environ.get("LAB_ROOT", "/root")
QDIR = os.path.join(LAB_ROOT, "q")
INBOX = os.path.join(QDIR, "inbox")
PROCESSING = os.path.join(QDIR, "processing")
DONE = os.path.join(QDIR, "done")
ERROR = os.path.join(QDIR, "error")
REQUIRED = ["msg_id", "order_no", "seq", "amount"]

# id 는 대리키, 멱등성은 msg_id 의 UNIQUE 제약이 보장한다.
DDL = """
CREATE TABLE IF NOT EXISTS processed (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    msg_id       TEXT    NOT NULL UNIQUE,
    order_no     TEXT    NOT NULL,
    seq          INTEGER NOT NULL,
    amount       NUMERIC NOT NULL,
    processed_at TEXT    NOT NULL DEFAULT CURRENT_TIMESTAMP
)
"""


def validate(path):
    """(message, None) 또는 (None, 사유)."""
    try:
        with open(path, encoding="utf-8") as f:
            msg = json.load(f)
    except ValueError:  # JSONDecodeError 와 UnicodeDecodeError 둘 다 ValueError
        return None, "parse"
    if not isinstance(msg, dict):
        return None, "parse"
    for key in REQUIRED:
        if msg.get(key) is None:
            return None, "missing-field"
    return msg, None


def save_sorted_lines(path, lines):
    old = set()
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            old = {line.strip() for line in f if line.strip()}
    with open(path, "w", encoding="utf-8") as f:
        for line in sorted(old | set(lines)):
            f.write(line + "\n")


def save_error_csv(path, reasons):
    merged = {}
    if os.path.exists(path):
        with open(path, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                merged[row["file"]] = row["reason"]
    merged.update(reasons)
    with open(path, "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["file", "reason"])
        for name in sorted(merged):
            out.writerow([name, merged[name]])


def main():
    for d in (INBOX, PROCESSING, DONE, ERROR):
        os.makedirs(d, exist_ok=True)
    conn = sqlite3.connect(os.path.join(QDIR, "ledger.db"), timeout=60)
    conn.execute(DDL)
    conn.commit()

    duplicates = []
    errors = {}
    stored = 0
    while True:
        names = sorted(n for n in os.listdir(INBOX) if os.path.isfile(os.path.join(INBOX, n)))
        if not names:
            break
        for name in names:
            work = os.path.join(PROCESSING, name)
            try:
                shutil.move(os.path.join(INBOX, name), work)
            except FileNotFoundError:
                continue  # 다른 소비자가 먼저 가져감
            msg, reason = validate(work)
            if msg is None:
                shutil.move(work, os.path.join(ERROR, name))
                errors[name] = reason
                continue
            cur = conn.execute(
                "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount) VALUES (?, ?, ?, ?)",
                (str(msg["msg_id"]), str(msg["order_no"]), msg["seq"], msg["amount"]),
            )
            conn.commit()
            if cur.rowcount == 0:
                duplicates.append(str(msg["msg_id"]))
            else:
                stored += 1
            shutil.move(work, os.path.join(DONE, name))

    save_sorted_lines(os.path.join(QDIR, "dup.txt"), duplicates)
    save_error_csv(os.path.join(QDIR, "error.csv"), errors)
    print(f"stored {stored}, duplicates {len(duplicates)}, errors {len(errors)}")


if __name__ == "__main__":
    main()
