#!/usr/bin/env python3
# consume.py - I think in shell, so the moves are plain `mv` (the lab says os.rename / mv are
# both atomic on one filesystem). Python is only for json + sqlite.
import json
import os
import sqlite3
import subprocess
import sys
import time

Q = "/root/q"
REQUIRED = ["msg_id", "order_no", "seq", "amount"]


def mv(src, dst_dir):
    subprocess.run(["mv", "--", src, dst_dir + "/"], check=True)


def reason_for(path):
    try:
        with open(path, encoding="utf-8") as fh:
            msg = json.load(fh)
    except Exception:                     # JSONDecodeError, UnicodeDecodeError, anything
        return None, "parse"
    if not isinstance(msg, dict):
        return None, "parse"
    for key in REQUIRED:
        if key not in msg or msg[key] is None:
            return None, "missing-field"
    return msg, None


def main():
    db = sqlite3.connect(Q + "/ledger.db", timeout=30)
    db.execute("""create table if not exists processed (
                      msg_id text primary key,
                      order_no text not null,
                      seq integer not null,
                      amount real not null,
                      processed_at text not null)""")
    db.commit()
    dups = []
    for name in sorted(os.listdir(Q + "/inbox")):
        mv(Q + "/inbox/" + name, Q + "/processing")        # claim
        work = Q + "/processing/" + name
        msg, why = reason_for(work)
        if why:
            print(name + "," + why)
            mv(work, Q + "/error")
            continue
        cur = db.execute(
            "insert into processed (msg_id, order_no, seq, amount, processed_at) values (?,?,?,?,?) "
            "on conflict(msg_id) do nothing",
            (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"],
             time.strftime("%Y-%m-%dT%H:%M:%S%z")))
        db.commit()
        if cur.rowcount == 0:
            dups.append(msg["msg_id"])
        mv(work, Q + "/done")
    for d in dups:
        print("dup", d, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
