#!/usr/bin/env python3
"""consume.py - drain a directory queue into ledger.db

usage: consume.py [-q QUEUE_DIR] [-d DB] [-v]

Exit codes: 0 ok, 2 bad usage, 3 queue dir broken.
"""
import argparse
import json
import os
import sqlite3
import sys
from datetime import datetime

REQUIRED = ("msg_id", "order_no", "seq", "amount")
SUBDIRS = ("inbox", "processing", "done", "error")


def parse_args(argv):
    ap = argparse.ArgumentParser(description="file-queue consumer (inbox -> processing -> done|error)")
    ap.add_argument("-q", "--queue-dir", default="/root/q", help="queue root (default: /root/q)")
    ap.add_argument("-d", "--db", default=None, help="sqlite file (default: QUEUE_DIR/ledger.db)")
    ap.add_argument("-v", "--verbose", action="store_true", help="log every file")
    args = ap.parse_args(argv)
    args.queue_dir = os.path.abspath(args.queue_dir)
    if args.db is None:
        args.db = os.path.join(args.queue_dir, "ledger.db")
    return args


def check_layout(q):
    if not os.path.isdir(q):
        print(f"consume.py: queue dir {q!r} does not exist", file=sys.stderr)
        sys.exit(3)
    for d in SUBDIRS:
        p = os.path.join(q, d)
        if os.path.exists(p) and not os.path.isdir(p):
            print(f"consume.py: {p!r} exists and is not a directory", file=sys.stderr)
            sys.exit(3)
        os.makedirs(p, exist_ok=True)


def validate(raw):
    """-> (message, None) | (None, 'parse' | 'missing-field')"""
    try:
        msg = json.loads(raw)
    except ValueError:
        return None, "parse"
    if not isinstance(msg, dict):
        return None, "parse"
    missing = [k for k in REQUIRED if k not in msg or msg[k] is None]
    if missing:
        return None, "missing-field"
    return msg, None


def to_sql(v):
    if isinstance(v, (dict, list)):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, int) and not isinstance(v, bool) and not (-(2 ** 63) <= v < 2 ** 63):
        return str(v)
    return v


class Consumer:
    def __init__(self, q, db, verbose):
        self.q = q
        self.dirs = {d: os.path.join(q, d) for d in SUBDIRS}
        self.verbose = verbose
        self.con = sqlite3.connect(db, timeout=30)
        self.con.execute(
            "CREATE TABLE IF NOT EXISTS processed ("
            "msg_id TEXT NOT NULL UNIQUE, "
            "order_no TEXT NOT NULL, "
            "seq INTEGER NOT NULL, "
            "amount NUMERIC NOT NULL, "
            "processed_at TEXT NOT NULL)"
        )
        self.con.commit()
        self.errors = []
        self.dups = []

    def log(self, *a):
        if self.verbose:
            print(*a, file=sys.stderr)

    def mv(self, name, src, dst):
        try:
            os.rename(os.path.join(self.dirs[src], name), os.path.join(self.dirs[dst], name))
            return True
        except FileNotFoundError:
            return False

    def files(self, d):
        out = []
        for e in os.scandir(self.dirs[d]):
            if e.is_file(follow_symlinks=False):
                out.append(e.name)
        return sorted(out)

    def handle(self, name):
        try:
            with open(os.path.join(self.dirs["processing"], name), "rb") as f:
                raw = f.read()
        except (FileNotFoundError, IsADirectoryError):
            return
        msg, reason = validate(raw)
        if reason:
            if self.mv(name, "processing", "error"):
                self.errors.append((name, reason))
                self.log(f"error  {name} ({reason})")
            return
        cur = self.con.execute(
            "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at) VALUES (?,?,?,?,?)",
            tuple(to_sql(msg[k]) for k in REQUIRED) + (datetime.now().isoformat(sep=" "),),
        )
        self.con.commit()
        if cur.rowcount == 0:
            self.dups.append(str(msg["msg_id"]))
            self.log(f"dup    {name} ({msg['msg_id']})")
        if self.mv(name, "processing", "done"):
            self.log(f"done   {name}")

    def run(self):
        while True:
            names = self.files("inbox")
            if not names:
                break
            for name in names:
                if self.mv(name, "inbox", "processing"):
                    self.handle(name)
        for name in self.files("processing"):  # left by a crashed run
            self.handle(name)
        self.con.close()


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    check_layout(args.queue_dir)
    c = Consumer(args.queue_dir, args.db, args.verbose)
    c.run()
    print(f"errors={len(c.errors)} duplicates={len(c.dups)}")
    for name, reason in c.errors:
        print(f"  error: {name},{reason}")
    for mid in sorted(set(c.dups)):
        print(f"  dup:   {mid}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
