#!/usr/bin/env python3
# consume.py -- file queue consumer.  Prints one tab separated line per message:
#   done<TAB>file<TAB>msg_id      error<TAB>file<TAB>reason      dup<TAB>file<TAB>msg_id
# so the reports can be made with awk afterwards.
import json, os, sqlite3, sys
from datetime import datetime, timezone

Q = "/root/q"
REQ = ("msg_id", "order_no", "seq", "amount")

db = sqlite3.connect(Q + "/ledger.db", timeout=60)
db.execute("""CREATE TABLE IF NOT EXISTS processed (
    msg_id       TEXT PRIMARY KEY,
    order_no     TEXT NOT NULL,
    seq          INTEGER NOT NULL,
    amount       INTEGER NOT NULL,
    processed_at TEXT NOT NULL)""")
db.commit()

for name in sorted(os.listdir(Q + "/inbox")):
    src = Q + "/inbox/" + name
    work = Q + "/processing/" + name
    if not os.path.isfile(src):
        continue
    try:
        os.rename(src, work)          # claim it; the other consumer may have been faster
    except FileNotFoundError:
        continue
    reason = None
    try:
        with open(work, "rb") as f:
            msg = json.loads(f.read().decode("utf-8"))
        if not isinstance(msg, dict):
            reason = "parse"
    except ValueError:                # JSONDecodeError and UnicodeDecodeError
        reason = "parse"
    if reason is None and any(msg.get(k) is None for k in REQ):
        reason = "missing-field"
    if reason:
        os.rename(work, Q + "/error/" + name)
        print("error\t%s\t%s" % (name, reason))
        continue
    cur = db.execute("INSERT OR IGNORE INTO processed VALUES (?,?,?,?,?)",
                     (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"],
                      datetime.now(timezone.utc).isoformat()))
    db.commit()
    os.rename(work, Q + "/done/" + name)
    print("%s\t%s\t%s" % ("done" if cur.rowcount == 1 else "dup", name, msg["msg_id"]))
    sys.stdout.flush()
db.close()
