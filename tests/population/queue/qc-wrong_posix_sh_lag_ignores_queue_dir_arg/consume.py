#!/usr/bin/env python3
# consume.py: inbox -> processing -> done | error
import json, os, shutil, sqlite3, sys, datetime

Q = "/root/q"
need = ("msg_id", "order_no", "seq", "amount")

con = sqlite3.connect(Q + "/ledger.db", timeout=30)
con.execute("""create table if not exists processed (
    msg_id text primary key,
    order_no text not null,
    seq integer not null,
    amount integer not null,
    processed_at text not null)""")
con.commit()


def reason_of(m):
    if not isinstance(m, dict):
        return "parse"
    for k in need:
        if m.get(k) is None:
            return "missing-field"
    return None


for name in sorted(os.listdir(Q + "/inbox")):
    mine = Q + "/processing/" + name
    try:
        shutil.move(Q + "/inbox/" + name, mine)   # same filesystem -> os.rename
    except FileNotFoundError:
        continue                                  # somebody else took it
    try:
        with open(mine, encoding="utf-8") as f:
            m = json.load(f)
    except ValueError:                            # JSONDecodeError and UnicodeDecodeError
        m = None
    why = reason_of(m)
    if why:
        sys.stdout.write("%s %s\n" % (why, name))
        shutil.move(mine, Q + "/error/" + name)
        continue
    con.execute("insert or ignore into processed values (?,?,?,?,?)",
                (m["msg_id"], m["order_no"], m["seq"], m["amount"],
                 datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")))
    con.commit()
    shutil.move(mine, Q + "/done/" + name)
