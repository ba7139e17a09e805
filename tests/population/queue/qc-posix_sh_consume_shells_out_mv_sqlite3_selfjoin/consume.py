#!/usr/bin/env python3
# consume.py -- I trust the unix tools more than my python, so python only decides,
# mv moves (rename(2), atomic) and the sqlite3 CLI writes the ledger.
import json
import os
import subprocess
import sys

Q = os.path.join(os.environ.get("LAB_ROOT", "/root"), "q")
DB = Q + "/ledger.db"
NEED = ["msg_id", "order_no", "seq", "amount"]


def sh(*cmd, **kw):
    return subprocess.run(list(cmd), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def sql(stmt):
    # .timeout so a second consumer waits for the lock instead of failing
    for _ in range(20):
        r = sh("sqlite3", "-bail", "-cmd", ".timeout 20000", DB, stmt)
        if r.returncode == 0:
            return r.stdout
        sys.stderr.write("sqlite3: " + r.stderr)
    raise SystemExit("sqlite3 keeps failing")


def lit(v):
    # python value -> sqlite literal (the CLI has no bind parameters)
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, (int, float)):
        return repr(v)
    if not isinstance(v, str):
        v = json.dumps(v, ensure_ascii=False)
    return "'" + v.replace("'", "''") + "'"


def mv(src, dst):
    return sh("mv", "--", src, dst).returncode == 0


sql("CREATE TABLE IF NOT EXISTS processed ("
    " msg_id TEXT PRIMARY KEY, order_no TEXT, seq INTEGER, amount INTEGER,"
    " processed_at TEXT DEFAULT (datetime('now')));")

names = sorted(sh("ls", "-A", Q + "/inbox").stdout.splitlines())
for name in names:
    if not mv(Q + "/inbox/" + name, Q + "/processing/" + name):
        continue  # the other consumer got it first
    p = Q + "/processing/" + name
    try:
        with open(p, encoding="utf-8") as fh:
            m = json.load(fh)
        if not isinstance(m, dict):
            raise ValueError("not an object")
    except ValueError:
        print("error parse", name)
        mv(p, Q + "/error/")
        continue
    if any(m.get(k) is None for k in NEED):
        print("error missing-field", name)
        mv(p, Q + "/error/")
        continue
    changed = sql("INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at) VALUES ("
                  + ", ".join(lit(m[k]) for k in NEED) + ", strftime('%Y-%m-%d %H:%M:%f','now'));"
                  + " SELECT changes();").strip()
    if changed == "0":
        print("dup", m["msg_id"])
    mv(p, Q + "/done/")
