#!/usr/bin/env python3
# Queue consumer for the "queue" lab.
# inbox -> processing -> done (valid) / error (bad JSON or missing fields)

import json
import os
import shutil
import sqlite3
from datetime import datetime

BASE_DIR = "/root/q"
INBOX_DIR = os.path.join(BASE_DIR, "inbox")
PROCESSING_DIR = os.path.join(BASE_DIR, "processing")
DONE_DIR = os.path.join(BASE_DIR, "done")
ERROR_DIR = os.path.join(BASE_DIR, "error")
DB_PATH = os.path.join(BASE_DIR, "ledger.db")

REQUIRED_FIELDS = ["msg_id", "order_no", "seq", "amount"]


def setup_db():
    conn = sqlite3.connect(DB_PATH, timeout=30)
    conn.execute(
        """
        CREATE TABLE IF NOT EXISTS processed (
            msg_id TEXT PRIMARY KEY,
            order_no TEXT,
            seq INTEGER,
            amount INTEGER,
            processed_at TEXT
        )
        """
    )
    conn.commit()
    return conn


def move_to(path, folder):
    # os.rename is atomic on the same filesystem
    dest = os.path.join(folder, os.path.basename(path))
    os.rename(path, dest)
    return dest


def main():
    for folder in [INBOX_DIR, PROCESSING_DIR, DONE_DIR, ERROR_DIR]:
        os.makedirs(folder, exist_ok=True)

    conn = setup_db()
    duplicates = []
    errors = []

    for filename in sorted(os.listdir(INBOX_DIR)):
        inbox_path = os.path.join(INBOX_DIR, filename)
        if not os.path.isfile(inbox_path):
            continue

        # Step 1: claim the file by moving it into processing/
        try:
            work_path = move_to(inbox_path, PROCESSING_DIR)
        except FileNotFoundError:
            # someone else already took it
            continue

        # Step 2: parse it
        try:
            with open(work_path, "r", encoding="utf-8") as f:
                message = json.load(f)
        except json.JSONDecodeError:
            print(f"[ERROR] {filename}: invalid JSON")
            move_to(work_path, ERROR_DIR)
            errors.append((filename, "parse"))
            continue

        if not isinstance(message, dict):
            print(f"[ERROR] {filename}: not a JSON object")
            move_to(work_path, ERROR_DIR)
            errors.append((filename, "parse"))
            continue

        # Step 3: required fields (null is treated as missing)
        missing = [field for field in REQUIRED_FIELDS if message.get(field) is None]
        if missing:
            print(f"[ERROR] {filename}: missing {missing}")
            move_to(work_path, ERROR_DIR)
            errors.append((filename, "missing-field"))
            continue

        # Step 4: insert; the PRIMARY KEY makes duplicates a no-op
        cursor = conn.execute(
            "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (
                message["msg_id"],
                message["order_no"],
                message["seq"],
                message["amount"],
                datetime.now().isoformat(),
            ),
        )
        conn.commit()
        if cursor.rowcount == 0:
            print(f"[DUP] {filename}: {message['msg_id']} already processed")
            duplicates.append(message["msg_id"])
        else:
            print(f"[OK] {filename}")

        move_to(work_path, DONE_DIR)

    conn.close()

    with open(os.path.join(BASE_DIR, "dup.txt"), "w") as f:
        for msg_id in sorted(set(duplicates)):
            f.write(f"{msg_id}\n")

    with open(os.path.join(BASE_DIR, "error.csv"), "w") as f:
        f.write("file,reason\n")
        for filename, reason in sorted(errors):
            f.write(f"{filename},{reason}\n")


if __name__ == "__main__":
    main()
