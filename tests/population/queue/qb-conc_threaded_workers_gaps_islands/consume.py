import argparse, json, os, random, sqlite3, sys, threading
from concurrent.futures import ThreadPoolExecutor

ROOT = os.environ.get("LAB_ROOT", "/root") + "/q"
REQUIRED = ("msg_id", "order_no", "seq", "amount")
_local = threading.local()


def conn():
    # sqlite3 connections must not be shared between threads: one per worker thread
    if not hasattr(_local, "db"):
        _local.db = sqlite3.connect(os.path.join(ROOT, "ledger.db"), timeout=60, isolation_level=None)
    return _local.db


def init_db():
    db = sqlite3.connect(os.path.join(ROOT, "ledger.db"), timeout=60)
    db.execute("""create table if not exists processed(
                      msg_id text not null,
                      order_no text not null,
                      seq integer not null,
                      amount not null,             -- no affinity: kept exactly as sent
                      processed_at text not null,
                      constraint processed_msg_id_uq unique (msg_id))""")
    db.commit()
    db.close()


def reason_for(raw):
    try:
        m = json.loads(raw)
    except ValueError:
        return None, "parse"
    if not isinstance(m, dict):
        return None, "parse"
    for k in REQUIRED:
        if m.get(k) is None:
            return None, "missing-field"
    return m, None


def work(name):
    src = os.path.join(ROOT, "inbox", name)
    mine = os.path.join(ROOT, "processing", name)
    try:
        os.rename(src, mine)            # claim (atomic); the loser gets ENOENT
    except FileNotFoundError:
        return "skipped"
    with open(mine, "rb") as f:
        m, why = reason_for(f.read())
    if why:
        os.rename(mine, os.path.join(ROOT, "error", name))
        return why
    c = conn().execute("insert or ignore into processed(msg_id, order_no, seq, amount, processed_at) "
                       "values (?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
                       (m["msg_id"], m["order_no"], m["seq"], m["amount"]))
    os.rename(mine, os.path.join(ROOT, "done", name))
    return "stored" if c.rowcount == 1 else "duplicate"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-w", "--workers", type=int, default=4)
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    for d in ("inbox", "processing", "done", "error"):
        os.makedirs(os.path.join(ROOT, d), exist_ok=True)
    init_db()
    tally = {}
    with ThreadPoolExecutor(max_workers=max(1, a.workers)) as pool:
        while True:
            names = [n for n in os.listdir(os.path.join(ROOT, "inbox"))
                     if os.path.isfile(os.path.join(ROOT, "inbox", n))]
            if not names:
                break
            random.shuffle(names)       # two consumers rarely fight over the same file
            for name, r in zip(names, pool.map(work, names)):
                tally[r] = tally.get(r, 0) + 1
                if a.verbose:
                    print(r, name)
    print(" ".join(f"{k}={v}" for k, v in sorted(tally.items())), file=sys.stderr)


if __name__ == "__main__":
    main()
