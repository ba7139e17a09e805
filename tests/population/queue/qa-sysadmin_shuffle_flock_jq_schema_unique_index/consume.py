#!/usr/bin/env python3
"""consume.py: one pass over inbox/. Safe to run several at once (rename claim + UNIQUE index)."""
import fcntl, json, os, random, sqlite3, subprocess, sys

Q = os.environ.get("LAB_ROOT", "/root").rstrip("/") + "/q"
REQ = ("msg_id", "order_no", "seq", "amount")

def append_locked(path, line, header=None, resort=False):
    with open(path, "a+") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        fh.seek(0, os.SEEK_END)
        if header and fh.tell() == 0:
            fh.write(header + "\n")
        fh.write(line + "\n")
        fh.flush()
        if resort:
            subprocess.run(["sort", "-u", "-o", path, path], env=dict(os.environ, LC_ALL="C"), check=False)
        fcntl.flock(fh, fcntl.LOCK_UN)

def classify(path):
    """-> (reason or None, message)"""
    try:
        with open(path, "rb") as fh:
            m = json.loads(fh.read())
    except (ValueError, OSError):
        return "parse", None
    if not isinstance(m, dict):
        return "parse", None
    if any(m.get(k) is None for k in REQ):
        return "missing-field", None
    return None, m

db = sqlite3.connect(Q + "/ledger.db", timeout=60, isolation_level=None)
db.execute("BEGIN IMMEDIATE")
db.execute("""CREATE TABLE IF NOT EXISTS processed (
                msg_id TEXT NOT NULL, order_no TEXT NOT NULL, seq INTEGER NOT NULL, amount NUMERIC NOT NULL,
                currency TEXT, created_at TEXT, raw TEXT,
                processed_at TEXT NOT NULL DEFAULT (datetime('now','localtime')))""")
db.execute("CREATE UNIQUE INDEX IF NOT EXISTS ux_processed_msg_id ON processed(msg_id)")
db.execute("COMMIT")

names = [e.name for e in os.scandir(Q + "/inbox") if e.is_file(follow_symlinks=False)]
random.shuffle(names)
stats = {"done": 0, "dup": 0, "error": 0, "lost": 0}
for name in names:
    work = f"{Q}/processing/{name}"
    try:
        os.rename(f"{Q}/inbox/{name}", work)
    except FileNotFoundError:
        stats["lost"] += 1
        continue
    reason, m = classify(work)
    if reason:
        os.rename(work, f"{Q}/error/{name}")
        append_locked(Q + "/error.csv", f"{name},{reason}", header="file,reason")
        stats["error"] += 1
        print(f"E {name} {reason}", flush=True)
        continue
    db.execute("BEGIN IMMEDIATE")
    cur = db.execute(
        "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, currency, created_at, raw) VALUES (?,?,?,?,?,?,?)",
        (m["msg_id"], m["order_no"], m["seq"], m["amount"], m.get("currency"), m.get("created_at"),
         json.dumps(m, ensure_ascii=False)))
    db.execute("COMMIT")
    if cur.rowcount == 0:
        append_locked(Q + "/dup.txt", str(m["msg_id"]), resort=True)
        stats["dup"] += 1
        print(f"D {name} {m['msg_id']}", flush=True)
    else:
        print(f"+ {name} {m['msg_id']}", flush=True)
    os.rename(work, f"{Q}/done/{name}")
    stats["done"] += 1
print(" ".join(f"{k}={v}" for k, v in stats.items()), file=sys.stderr)
