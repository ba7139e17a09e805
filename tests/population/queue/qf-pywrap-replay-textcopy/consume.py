#!/usr/bin/env python3
import json
import os
import sqlite3
import time

Q = "/root/q"
INBOX = f"{Q}/inbox"
PROC = f"{Q}/processing"
DONE = f"{Q}/done"
ERR = f"{Q}/error"
FIELDS = ["msg_id", "order_no", "seq", "amount"]


def sqlite_ok(v):
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v if -2**63 <= v < 2**63 else str(v)
    if isinstance(v, (dict, list)):
        return json.dumps(v)
    return v


def reason_for(raw):
    try:
        obj = json.loads(raw)
    except ValueError:
        return None, "parse"
    if type(obj) is not dict:
        return None, "parse"
    if any(obj.get(k) is None for k in FIELDS):
        return None, "missing-field"
    return obj, None


def main():
    for d in (INBOX, PROC, DONE, ERR):
        os.makedirs(d, exist_ok=True)
    db = sqlite3.connect(f"{Q}/ledger.db", timeout=30)
    db.execute("""create table if not exists processed(
        msg_id text primary key, order_no text, seq integer, amount numeric,
        processed_at text not null)""")
    db.commit()

    errors, dups = [], []

    def work(name):
        p = os.path.join(PROC, name)
        try:
            with open(p, "rb") as f:
                raw = f.read()
        except (FileNotFoundError, IsADirectoryError):
            return
        obj, why = reason_for(raw)
        if why:
            try:
                os.rename(p, os.path.join(ERR, name))
                errors.append((name, why))
            except FileNotFoundError:
                pass
            return
        c = db.execute("insert or ignore into processed values (?,?,?,?,?)",
                       [sqlite_ok(obj[k]) for k in FIELDS] + [time.strftime("%Y-%m-%d %H:%M:%S")])
        db.commit()
        if c.rowcount == 0:
            dups.append(str(obj["msg_id"]))
        try:
            os.rename(p, os.path.join(DONE, name))
        except FileNotFoundError:
            pass

    while True:
        batch = sorted(n for n in os.listdir(INBOX) if os.path.isfile(os.path.join(INBOX, n)))
        if not batch:
            break
        for name in batch:
            try:
                os.rename(os.path.join(INBOX, name), os.path.join(PROC, name))
            except FileNotFoundError:
                continue
            work(name)
    for name in sorted(os.listdir(PROC)):
        if os.path.isfile(os.path.join(PROC, name)):
            work(name)
    db.close()

    # keep what earlier runs wrote
    if errors:
        new = not os.path.exists(f"{Q}/error.csv")
        with open(f"{Q}/error.csv", "a") as f:
            if new:
                f.write("file,reason\n")
            for name, why in errors:
                f.write(f"{name},{why}\n")
    if dups:
        old = set()
        if os.path.exists(f"{Q}/dup.txt"):
            old = set(open(f"{Q}/dup.txt").read().split())
        with open(f"{Q}/dup.txt", "w") as f:
            f.write("".join(i + "\n" for i in sorted(old | set(dups))))
    print(f"errors: {errors}\nduplicates: {sorted(dups)}")


if __name__ == "__main__":
    main()
