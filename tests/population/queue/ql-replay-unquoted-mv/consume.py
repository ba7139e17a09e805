#!/usr/bin/env python3
# consume.py
# inbox -> processing (rename) -> 검사 -> ledger.db -> done / error
import json, os, sqlite3, sys, time

BASE = "/root/q"
D = {k: os.path.join(BASE, k) for k in ("inbox", "processing", "done", "error")}
REQ = ["msg_id", "order_no", "seq", "amount"]

for _d in D.values():
    os.makedirs(_d, exist_ok=True)

db = sqlite3.connect(os.path.join(BASE, "ledger.db"), timeout=30)
db.execute("""CREATE TABLE IF NOT EXISTS processed(
    msg_id TEXT,
    order_no TEXT,
    seq INTEGER,
    amount REAL,
    processed_at TEXT,
    UNIQUE(msg_id)
)""")
db.commit()


def move(name, frm, to):
    os.rename(os.path.join(D[frm], name), os.path.join(D[to], name))


for name in sorted(os.listdir(D["inbox"])):
    try:
        move(name, "inbox", "processing")
    except OSError:
        continue
    p = os.path.join(D["processing"], name)
    try:
        msg = json.load(open(p, encoding="utf-8"))
        assert isinstance(msg, dict)
    except (ValueError, AssertionError):
        print("ERROR", name, "parse")
        move(name, "processing", "error")
        continue

    if any(msg.get(k) is None for k in REQ):
        print("ERROR", name, "missing-field")
        move(name, "processing", "error")
        continue

    # 이미 처리한 msg_id 면 바로 done (재전송/중복) - 빠른 경로 (필수필드 검사 뒤에)
    if db.execute("SELECT 1 FROM processed WHERE msg_id = ?", (msg.get("msg_id"),)).fetchone():
        print("DUP", msg["msg_id"], name)
        move(name, "processing", "done")
        continue

    cur = db.execute(
        "INSERT OR IGNORE INTO processed(msg_id, order_no, seq, amount, processed_at) VALUES(?,?,?,?,?)",
        (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"],
         time.strftime("%Y-%m-%d %H:%M:%S")))
    db.commit()
    if cur.rowcount == 1:
        print("OK", msg["msg_id"], name)
    else:
        # 동시에 다른 consumer 가 먼저 넣은 경우
        print("DUP", msg["msg_id"], name)
    move(name, "processing", "done")

db.close()
