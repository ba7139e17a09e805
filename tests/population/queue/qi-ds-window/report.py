"""report.py - error.csv, dup.txt and schema.csv from what is on disk (run after consume.py).

dup.txt: a msg_id that appears in more than one file of done/ was ignored as a duplicate
at least once (the ledger keeps one row per msg_id).
"""
import csv
import json
import os
from collections import Counter, OrderedDict

QUEUE = "/root/q"
REQUIRED = ["msg_id", "order_no", "seq", "amount"]


def load(path):
    with open(path, "rb") as fh:
        return json.loads(fh.read())


def reason_for(path):
    try:
        obj = load(path)
    except (ValueError, UnicodeDecodeError):
        return "parse"
    if not isinstance(obj, dict):
        return "parse"
    return "missing-field" if any(obj.get(k) is None for k in REQUIRED) else "?"


def sqlish_type(values):
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return "integer"
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return "number"
    return "string"


def main():
    err_dir = os.path.join(QUEUE, "error")
    with open(os.path.join(QUEUE, "error.csv"), "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)  # default dialect: CRLF line ends
        w.writerow(["file", "reason"])
        for name in sorted(os.listdir(err_dir)):
            w.writerow([name, reason_for(os.path.join(err_dir, name))])

    done_dir = os.path.join(QUEUE, "done")
    msgs = [load(os.path.join(done_dir, n)) for n in sorted(os.listdir(done_dir))]
    counts = Counter(m["msg_id"] for m in msgs)
    with open(os.path.join(QUEUE, "dup.txt"), "w", encoding="utf-8") as fh:
        for mid in sorted(k for k, c in counts.items() if c > 1):
            fh.write(mid + "\n")

    # schema: union of the keys of the good messages, in first-seen order
    fields = OrderedDict()
    for m in msgs:
        for k, v in m.items():
            fields.setdefault(k, []).append(v)
    roles = {"msg_id": "idempotency-key", "seq": "sequence"}
    with open(os.path.join(QUEUE, "schema.csv"), "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["field", "type", "role"])
        for k, vals in fields.items():
            w.writerow([k, sqlish_type(vals), roles.get(k, "")])


if __name__ == "__main__":
    main()
