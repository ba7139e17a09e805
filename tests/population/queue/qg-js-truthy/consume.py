import json, os, sqlite3, datetime

baseDir = "/root/q"
requiredFields = ["msg_id", "order_no", "seq", "amount"]


def moveTo(src, folder):
    dest = os.path.join(baseDir, folder, os.path.basename(src))
    os.rename(src, dest)
    return dest


def main():
    db = sqlite3.connect(os.path.join(baseDir, "ledger.db"), timeout=30)
    db.execute("""
        CREATE TABLE IF NOT EXISTS processed (
            msg_id TEXT PRIMARY KEY,
            order_no TEXT,
            seq INTEGER,
            amount INTEGER,
            processed_at TEXT
        )""")
    db.commit()

    errorRows = []
    dupIds = []
    while True:
        fileNames = sorted(os.listdir(os.path.join(baseDir, "inbox")))
        if len(fileNames) == 0:
            break
        for fileName in fileNames:
            try:
                workPath = moveTo(os.path.join(baseDir, "inbox", fileName), "processing")
            except FileNotFoundError:
                continue  # another consumer got it first

            try:
                with open(workPath, encoding="utf-8") as fh:
                    msg = json.load(fh)
                if type(msg) is not dict:
                    raise ValueError("not an object")
            except ValueError:
                moveTo(workPath, "error")
                errorRows.append((fileName, "parse"))
                continue

            missing = [f for f in requiredFields if not msg.get(f)]
            if missing:
                moveTo(workPath, "error")
                errorRows.append((fileName, "missing-field"))
                continue

            cur = db.execute(
                "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at) VALUES (?, ?, ?, ?, ?)",
                (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"], datetime.datetime.now().isoformat()),
            )
            db.commit()
            if cur.rowcount == 0:
                dupIds.append(msg["msg_id"])
            moveTo(workPath, "done")

    db.close()
    with open(os.path.join(baseDir, "dup.txt"), "w") as fh:
        for msgId in sorted(set(dupIds)):
            fh.write(msgId + "\n")
    with open(os.path.join(baseDir, "error.csv"), "w") as fh:
        fh.write("file,reason\n")
        for fileName, reason in errorRows:
            fh.write(f"{fileName},{reason}\n")
    print(f"errors={len(errorRows)} duplicates={len(dupIds)}")


main()
