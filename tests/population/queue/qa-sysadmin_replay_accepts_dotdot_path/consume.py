#!/usr/bin/env python3
import json, os, sqlite3, time

Q = os.environ.get("LAB_ROOT", "/root") + "/q"
REQ = ("msg_id", "order_no", "seq", "amount")

con = sqlite3.connect(Q + "/ledger.db", timeout=30)
con.execute("create table if not exists processed ("
            "msg_id text primary key, order_no text, seq integer, amount numeric, "
            "processed_at text default (datetime('now')), file text)")
con.commit()

def reason_of(path):
    try:
        m = json.load(open(path, encoding="utf-8"))
    except Exception:
        return "parse", None
    if not isinstance(m, dict):
        return "parse", None
    for k in REQ:
        if m.get(k) is None:
            return "missing-field", None
    return None, m

with open(Q + "/consume.log", "a") as log:
    for e in sorted(os.scandir(Q + "/inbox"), key=lambda e: e.name):
        if not e.is_file():
            continue
        work = Q + "/processing/" + e.name
        try:
            os.rename(e.path, work)
        except FileNotFoundError:
            continue
        why, m = reason_of(work)
        if why:
            os.replace(work, Q + "/error/" + e.name)
            log.write(f"{time.strftime('%F %T')} error {e.name} {why}\n")
            continue
        cur = con.execute("insert into processed (msg_id, order_no, seq, amount, file) values (?,?,?,?,?) "
                          "on conflict do nothing", (m["msg_id"], m["order_no"], m["seq"], m["amount"], e.name))
        con.commit()
        log.write(f"{time.strftime('%F %T')} {'dup' if cur.rowcount == 0 else 'ok'} {e.name} {m['msg_id']}\n")
        os.replace(work, Q + "/done/" + e.name)
con.close()
