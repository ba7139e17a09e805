#!/usr/bin/env python3
# consume.py - drain /root/q/inbox once. inbox -> processing -> done|error
import glob, json, os, sqlite3, sys, time

Q = os.path.join(os.environ.get("LAB_ROOT", "/root"), "q")
LOG = open(os.path.join(Q, "consume.log"), "a")
def log(*a):
    line = time.strftime("%b %d %H:%M:%S") + " consume[%d]: " % os.getpid() + " ".join(str(x) for x in a)
    print(line, file=sys.stderr); LOG.write(line + "\n"); LOG.flush()

db = sqlite3.connect(os.path.join(Q, "ledger.db"), timeout=60, isolation_level=None)
db.execute("""create table if not exists processed(
  msg_id text not null,
  order_no text not null,
  seq integer not null,
  amount real not null,
  processed_at text not null default current_timestamp,
  unique(msg_id))""")

for f in sorted(glob.glob(os.path.join(Q, "inbox", "*")) + glob.glob(os.path.join(Q, "inbox", ".*"))):
    name = os.path.basename(f)
    p = os.path.join(Q, "processing", name)
    try:
        os.rename(f, p)                       # the claim; fails if the other consumer got it first
    except OSError:
        continue
    if not os.path.isfile(p):                 # a directory slipped in; give it back
        os.rename(p, f); continue
    try:
        m = json.load(open(p, "rb"))
        if type(m) is not dict:
            raise ValueError("not an object")
    except ValueError as e:                   # JSONDecodeError and UnicodeDecodeError are ValueErrors
        os.rename(p, os.path.join(Q, "error", name)); log("ERROR parse", name, e); continue
    if [k for k in ("msg_id", "order_no", "seq", "amount") if m.get(k) is None]:
        os.rename(p, os.path.join(Q, "error", name)); log("ERROR missing-field", name); continue
    c = db.execute("insert into processed(msg_id, order_no, seq, amount) values (?,?,?,?) on conflict(msg_id) do nothing",
                   (m["msg_id"], m["order_no"], m["seq"], m["amount"]))
    log("DUP" if c.rowcount == 0 else "OK", name, m["msg_id"])
    os.rename(p, os.path.join(Q, "done", name))
db.close()
