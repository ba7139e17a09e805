#!/usr/bin/env python3
"""Polling consumer for /root/q.

Runs like a small daemon: poll inbox/, claim one file at a time by renaming it
into processing/, handle it, sleep a little when there is nothing to do, and
stop after the inbox has been seen empty on two polls in a row.
"""
import json
import os
import sqlite3
import sys
import time
from datetime import datetime, timezone

BASE = "/root/q"
INBOX = os.path.join(BASE, "inbox")
PROCESSING = os.path.join(BASE, "processing")
DONE = os.path.join(BASE, "done")
ERROR = os.path.join(BASE, "error")
DB = os.path.join(BASE, "ledger.db")

REQUIRED = ("msg_id", "order_no", "seq", "amount")
POLL_INTERVAL = 0.5
EMPTY_POLLS_TO_STOP = 2


class Poller:
    def __init__(self):
        self.con = sqlite3.connect(DB, timeout=30)
        self.con.execute(
            "CREATE TABLE IF NOT EXISTS processed ("
            " msg_id TEXT PRIMARY KEY,"
            " order_no TEXT NOT NULL,"
            " seq INTEGER NOT NULL,"
            " amount NUMERIC NOT NULL,"
            " processed_at TEXT NOT NULL)"
        )
        self.con.commit()
        self.stats = {"done": 0, "error": 0, "dup": 0}

    @staticmethod
    def poll(directory):
        try:
            entries = os.listdir(directory)
        except FileNotFoundError:
            return []
        return sorted(
            n for n in entries
            if os.path.isfile(os.path.join(directory, n))
            and not os.path.islink(os.path.join(directory, n))
        )

    @staticmethod
    def move(src_dir, dst_dir, name):
        try:
            os.rename(os.path.join(src_dir, name), os.path.join(dst_dir, name))
            return True
        except FileNotFoundError:
            return False

    @staticmethod
    def check(raw):
        try:
            msg = json.loads(raw)
        except ValueError:
            return None, "parse"
        if not isinstance(msg, dict):
            return None, "parse"
        for field in REQUIRED:
            if msg.get(field) is None:
                return None, "missing-field"
        return msg, None

    @staticmethod
    def value(v):
        if isinstance(v, (dict, list)):
            return json.dumps(v, ensure_ascii=False)
        if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 2 ** 63:
            return str(v)
        return v

    def handle(self, name):
        path = os.path.join(PROCESSING, name)
        try:
            with open(path, "rb") as fh:
                raw = fh.read()
        except (FileNotFoundError, IsADirectoryError):
            return
        msg, reason = self.check(raw)
        if reason:
            if self.move(PROCESSING, ERROR, name):
                self.stats["error"] += 1
                print(f"[error] {name}: {reason}", flush=True)
            return
        cur = self.con.execute(
            "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT(msg_id) DO NOTHING",
            (self.value(msg["msg_id"]), self.value(msg["order_no"]),
             self.value(msg["seq"]), self.value(msg["amount"]),
             datetime.now(timezone.utc).isoformat()),
        )
        self.con.commit()
        if cur.rowcount == 0:
            self.stats["dup"] += 1
            print(f"[dup] {name}: {msg['msg_id']}", flush=True)
        if self.move(PROCESSING, DONE, name):
            self.stats["done"] += 1

    def run(self):
        # anything a previous run left half-done goes first
        for name in self.poll(PROCESSING):
            self.handle(name)
        empty_polls = 0
        while empty_polls < EMPTY_POLLS_TO_STOP:
            names = self.poll(INBOX)
            if not names:
                empty_polls += 1
                time.sleep(POLL_INTERVAL)
                continue
            empty_polls = 0
            for name in names:
                if self.move(INBOX, PROCESSING, name):
                    self.handle(name)
        self.con.close()
        print(f"[stop] done={self.stats['done']} error={self.stats['error']} dup={self.stats['dup']}", flush=True)


def main():
    for d in (INBOX, PROCESSING, DONE, ERROR):
        os.makedirs(d, exist_ok=True)
    p = Poller()
    p.run()
    # non-zero status when poison messages showed up, so cron mails me
    return 1 if p.stats["error"] else 0


if __name__ == "__main__":
    sys.exit(main())
