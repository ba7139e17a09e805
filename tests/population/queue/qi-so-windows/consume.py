# -*- coding: utf-8 -*-
# consume.py
# based on https://stackoverflow.com/a/3207973 (list files), https://stackoverflow.com/a/8858026 (move)
# and https://stackoverflow.com/q/19337029 (sqlite insert or ignore)
import os
import sys
import json
import glob
import shutil
import sqlite3
import csv
import datetime

BASE_DIR = os.path.join("/root", "q")
INBOX = os.path.join(BASE_DIR, "inbox")
PROCESSING = os.path.join(BASE_DIR, "processing")
DONE = os.path.join(BASE_DIR, "done")
ERROR = os.path.join(BASE_DIR, "error")
DB_FILE = os.path.join(BASE_DIR, "ledger.db")
ERROR_CSV = os.path.join(BASE_DIR, "error.csv")
DUP_TXT = os.path.join(BASE_DIR, "dup.txt")

REQUIRED_FIELDS = ["msg_id", "order_no", "seq", "amount"]


def get_connection():
    conn = sqlite3.connect(DB_FILE, timeout=30)
    conn.execute("""
        CREATE TABLE IF NOT EXISTS processed (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            msg_id VARCHAR(64) NOT NULL UNIQUE,
            order_no VARCHAR(32) NOT NULL,
            seq INT NOT NULL,
            amount DECIMAL(15,2) NOT NULL,
            processed_at DATETIME NOT NULL
        )
    """)
    conn.commit()
    return conn


def main():
    conn = get_connection()
    errors = []
    dups = []

    files = sorted(glob.glob(os.path.join(INBOX, "*.json")))
    for path in files:
        filename = os.path.basename(path)
        work_path = os.path.join(PROCESSING, filename)
        try:
            shutil.move(path, work_path)
        except FileNotFoundError:
            # another consumer already took it
            continue

        # utf-8-sig so a file saved by Notepad (BOM) still parses
        try:
            with open(work_path, "r", encoding="utf-8-sig") as f:
                data = json.load(f)
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
        except Exception as e:
            print("PARSE ERROR", filename, e)
            shutil.move(work_path, os.path.join(ERROR, filename))
            errors.append((filename, "parse"))
            continue

        missing = [k for k in REQUIRED_FIELDS if k not in data or data[k] is None]
        if missing:
            print("MISSING FIELD", filename, missing)
            shutil.move(work_path, os.path.join(ERROR, filename))
            errors.append((filename, "missing-field"))
            continue

        now = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")
        cur = conn.cursor()
        cur.execute(
            "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (data["msg_id"], data["order_no"], data["seq"], data["amount"], now),
        )
        conn.commit()
        if cur.rowcount == 0:
            print("DUPLICATE", filename, data["msg_id"])
            dups.append(data["msg_id"])
        shutil.move(work_path, os.path.join(DONE, filename))

    conn.close()

    # error.csv - utf-8-sig so Excel opens it correctly (https://stackoverflow.com/a/29976497)
    if errors:
        new_file = not os.path.exists(ERROR_CSV)
        with open(ERROR_CSV, "a", newline="", encoding="utf-8-sig" if new_file else "utf-8") as f:
            writer = csv.writer(f)
            if new_file:
                writer.writerow(["file", "reason"])
            for row in errors:
                writer.writerow(row)

    # dup.txt - keep old ones, sorted ascending
    if dups:
        old = []
        if os.path.exists(DUP_TXT):
            with open(DUP_TXT, "r", encoding="utf-8-sig") as f:
                old = [line.strip() for line in f if line.strip()]
        with open(DUP_TXT, "w", encoding="utf-8-sig", newline="\r\n") as f:
            for msg_id in sorted(set(old + dups)):
                f.write(msg_id + "\n")

    print("finished")
    return 0


if __name__ == "__main__":
    sys.exit(main())
