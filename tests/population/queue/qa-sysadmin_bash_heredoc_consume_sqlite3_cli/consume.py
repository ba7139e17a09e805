#!/usr/bin/env python3
# consume.py -- file-queue consumer.
# Python only because the lab wants a .py; the work is done by the bash below
# (mv for the claim, sqlite3 CLI for the ledger). python3 -c is used only to parse the JSON.
import os
import subprocess
import sys

BASH = r'''
set -u
Q="${LAB_ROOT:-/root}/q"
DB="$Q/ledger.db"
LOG="$Q/consume.log"
ts() { printf '%(%FT%T)T' -1; }
SQL() { sqlite3 -batch -cmd ".timeout 20000" "$DB" "$@"; }

SQL "CREATE TABLE IF NOT EXISTS processed (
        msg_id       TEXT PRIMARY KEY,
        order_no     TEXT NOT NULL,
        seq          INTEGER NOT NULL,
        amount       NUMERIC NOT NULL,
        processed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
        src_file     TEXT);" >/dev/null || exit 1

# parse one file: exit 2 = parse, 3 = missing-field, 0 = prints "msg_id" then "sql values"
CHECK='
import json, sys
try:
    d = json.load(open(sys.argv[1], encoding="utf-8"))
except Exception:
    sys.exit(2)
if not isinstance(d, dict):
    sys.exit(2)
if any(d.get(k) is None for k in ("msg_id", "order_no", "seq", "amount")):
    sys.exit(3)
def q(v):
    if isinstance(v, bool): return "1" if v else "0"
    if isinstance(v, (int, float)): return repr(v)
    if not isinstance(v, str): v = json.dumps(v)
    return chr(39) + v.replace(chr(39), chr(39) * 2) + chr(39)
print(str(d["msg_id"]).replace("\n", " "))
print(",".join(q(d[k]) for k in ("msg_id", "order_no", "seq", "amount")))
'

n_done=0; n_err=0; n_dup=0
while IFS= read -r -d '' f; do
    name=${f##*/}
    # claim: rename into processing/. If it fails another consumer already has it.
    mv -- "$f" "$Q/processing/$name" 2>/dev/null || continue
    p="$Q/processing/$name"
    # -I -S: no site/user setup, json is stdlib anyway; halves the start-up time in this loop
    out=$(python3 -I -S -c "$CHECK" "$p"); rc=$?
    if [ $rc -eq 2 ] || [ $rc -eq 3 ]; then
        reason=parse; [ $rc -eq 3 ] && reason=missing-field
        mv -- "$p" "$Q/error/$name"
        echo "$(ts) ERROR $reason $name" >> "$LOG"
        n_err=$((n_err+1)); continue
    elif [ $rc -ne 0 ]; then
        echo "python failed on $name (rc=$rc), leaving it alone" >&2
        mv -- "$p" "$Q/error/$name"; echo "$(ts) ERROR parse $name" >> "$LOG"; continue
    fi
    mid=${out%%$'\n'*}
    vals=${out#*$'\n'}
    esc=${name//\'/\'\'}
    ch=""
    for try in 1 2 3 4 5; do
        ch=$(SQL "INSERT OR IGNORE INTO processed(msg_id,order_no,seq,amount,src_file) VALUES($vals,'$esc'); SELECT changes();") && break
        sleep 1
    done
    if [ -z "$ch" ]; then
        echo "sqlite3 keeps failing on $name" >&2
        mv -- "$p" "$Q/inbox/$name"; exit 1
    fi
    if [ "$ch" = 0 ]; then
        echo "$(ts) DUP $mid $name" >> "$LOG"; n_dup=$((n_dup+1))
    else
        echo "$(ts) OK $mid $name" >> "$LOG"
    fi
    mv -- "$p" "$Q/done/$name"
    n_done=$((n_done+1))
done < <(find "$Q/inbox" -mindepth 1 -maxdepth 1 -type f -print0 | sort -z)
echo "consume: done=$n_done (dup=$n_dup) error=$n_err"
'''

sys.exit(subprocess.call(["bash", "-c", BASH]))
