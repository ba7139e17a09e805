import os, json, sqlite3, csv, time

ROOT = "/root/q/"
REQUIRED = ["msg_id", "order_no", "seq", "amount"]

def move(name, frm, to):
    os.rename(ROOT + frm + "/" + name, ROOT + to + "/" + name)

def log_error(name, reason):
    new_file = not os.path.exists(ROOT + "error.csv")
    try:
        with open(ROOT + "error.csv", "a", newline="") as f:
            w = csv.writer(f)          # csv module writes \r\n line ends
            if new_file:
                w.writerow(["file", "reason"])
            w.writerow([name, reason])
    except Exception as e:
        print("could not write error.csv:", e)

def log_dup(msg_id):
    try:
        with open(ROOT + "dup.txt", "a") as f:
            f.write(str(msg_id) + "\n")
    except Exception as e:
        print("could not write dup.txt:", e)

db = sqlite3.connect(ROOT + "ledger.db", timeout=20)
db.execute("CREATE TABLE IF NOT EXISTS processed (msg_id text UNIQUE, order_no text, seq integer, amount real, processed_at integer)")
db.commit()

count = 0
while True:
    files = [f for f in os.listdir(ROOT + "inbox") if os.path.isfile(ROOT + "inbox/" + f)]
    if len(files) == 0:
        print("inbox empty, bye")
        break
    files.sort()
    name = files[0]
    print("---", name)
    try:
        move(name, "inbox", "processing")
    except Exception as e:
        print("someone else took it?", e)
        continue

    try:
        with open(ROOT + "processing/" + name, encoding="utf-8") as f:
            msg = json.load(f)
    except Exception as e:
        print("bad json!", e)
        move(name, "processing", "error")
        log_error(name, "parse")
        continue

    if type(msg) != dict:
        print("json but not an object:", msg)
        move(name, "processing", "error")
        log_error(name, "parse")
        continue

    missing = [k for k in REQUIRED if msg.get(k) is None]
    if missing:
        print("missing:", missing)
        move(name, "processing", "error")
        log_error(name, "missing-field")
        continue

    try:
        cur = db.execute("INSERT INTO processed VALUES (?, ?, ?, ?, ?) ON CONFLICT (msg_id) DO NOTHING",
                         (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"], int(time.time())))
        db.commit()
        if cur.rowcount == 0:
            print("duplicate!!", msg["msg_id"])
            log_dup(msg["msg_id"])
        else:
            print("saved", msg["msg_id"])
    except Exception as e:
        print("db problem:", e)
    move(name, "processing", "done")
    count += 1

db.close()

# sort dup.txt so it is ascending
try:
    ids = open(ROOT + "dup.txt").read().split()
    with open(ROOT + "dup.txt", "w") as f:
        for i in sorted(set(ids)):
            f.write(i + "\n")
except Exception as e:
    print("no dup.txt?", e)

print("done:", count)
