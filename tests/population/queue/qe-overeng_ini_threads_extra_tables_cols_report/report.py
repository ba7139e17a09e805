#!/usr/bin/env python3
"""report.py -- writes the step 4-6 artefacts from ledger.db: dup.txt, error.csv, order-result.txt"""
import csv
import os
import sqlite3

BASE = "/root/q"
con = sqlite3.connect(os.path.join(BASE, "ledger.db"))

# step 4: the msg_ids that were ignored as duplicates, ascending
dups = [r[0] for r in con.execute("SELECT DISTINCT msg_id FROM duplicate_hit ORDER BY msg_id")]
with open(os.path.join(BASE, "dup.txt"), "w", encoding="utf-8") as f:
    f.writelines(d + "\n" for d in dups)

# step 5: one row per file currently in error/, with its latest recorded reason
in_error = set(os.listdir(os.path.join(BASE, "error")))
rows = con.execute("""SELECT file, reason FROM dead_letter d
                      WHERE id = (SELECT MAX(id) FROM dead_letter WHERE file = d.file)
                      ORDER BY file""").fetchall()
with open(os.path.join(BASE, "error.csv"), "w", encoding="utf-8", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["file", "reason"])
    w.writerows(r for r in rows if r[0] in in_error)

# step 6: run order-check.sql
with open(os.path.join(BASE, "order-check.sql"), encoding="utf-8") as f:
    problems = con.execute(f.read()).fetchall()
with open(os.path.join(BASE, "order-result.txt"), "w", encoding="utf-8") as f:
    if not problems:
        n_orders = con.execute("SELECT COUNT(DISTINCT order_no) FROM processed").fetchone()[0]
        f.write("OK\n")
        f.write(f"# order-check.sql: 0 rows ({n_orders} orders checked)\n")
    else:
        f.write("NG\n")
        for p in problems:
            f.write(",".join(map(str, p)) + "\n")
print(f"dup.txt: {len(dups)}  error.csv: {sum(1 for r in rows if r[0] in in_error)}  order problems: {len(problems)}")
