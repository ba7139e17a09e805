"""Variants of the queue lab's reference solution (solutions/queue)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from fixtures.queue_messages import golden_set
from tests.variants.variant import Edit, Replace, Variant

# ---------------------------------------------------------------------------------------------
# Correct alternative 1: INSERT OR IGNORE + rowcount, a surrogate INTEGER PRIMARY KEY with
# msg_id UNIQUE NOT NULL, processed_at from a column DEFAULT, shutil.move, a `while True` loop
# that re-lists inbox/ until it is empty, dup.txt and error.csv written (merged, sorted) by
# consume.py itself; a GROUP BY order check with dot-commands; find-based lag.sh exiting 1;
# POSIX sh replay.sh comparing basename; schema.csv with synonyms, another order, CRLF.
# ---------------------------------------------------------------------------------------------

ALT1_CONSUME = r'''#!/usr/bin/env python3
"""큐 소비자: inbox -> processing -> done / error, 정상 메시지는 ledger.db 의 processed 로."""
import csv
import json
import os
import shutil
import sqlite3

LAB_ROOT = os.environ.get("LAB_ROOT", "/root")
QDIR = os.path.join(LAB_ROOT, "q")
INBOX = os.path.join(QDIR, "inbox")
PROCESSING = os.path.join(QDIR, "processing")
DONE = os.path.join(QDIR, "done")
ERROR = os.path.join(QDIR, "error")
REQUIRED = ["msg_id", "order_no", "seq", "amount"]

# id 는 대리키, 멱등성은 msg_id 의 UNIQUE 제약이 보장한다.
DDL = """
CREATE TABLE IF NOT EXISTS processed (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    msg_id       TEXT    NOT NULL UNIQUE,
    order_no     TEXT    NOT NULL,
    seq          INTEGER NOT NULL,
    amount       NUMERIC NOT NULL,
    processed_at TEXT    NOT NULL DEFAULT CURRENT_TIMESTAMP
)
"""


def validate(path):
    """(message, None) 또는 (None, 사유)."""
    try:
        with open(path, encoding="utf-8") as f:
            msg = json.load(f)
    except ValueError:  # JSONDecodeError 와 UnicodeDecodeError 둘 다 ValueError
        return None, "parse"
    if not isinstance(msg, dict):
        return None, "parse"
    for key in REQUIRED:
        if msg.get(key) is None:
            return None, "missing-field"
    return msg, None


def save_sorted_lines(path, lines):
    old = set()
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            old = {line.strip() for line in f if line.strip()}
    with open(path, "w", encoding="utf-8") as f:
        for line in sorted(old | set(lines)):
            f.write(line + "\n")


def save_error_csv(path, reasons):
    merged = {}
    if os.path.exists(path):
        with open(path, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                merged[row["file"]] = row["reason"]
    merged.update(reasons)
    with open(path, "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["file", "reason"])
        for name in sorted(merged):
            out.writerow([name, merged[name]])


def main():
    for d in (INBOX, PROCESSING, DONE, ERROR):
        os.makedirs(d, exist_ok=True)
    conn = sqlite3.connect(os.path.join(QDIR, "ledger.db"), timeout=60)
    conn.execute(DDL)
    conn.commit()

    duplicates = []
    errors = {}
    stored = 0
    while True:
        names = sorted(n for n in os.listdir(INBOX) if os.path.isfile(os.path.join(INBOX, n)))
        if not names:
            break
        for name in names:
            work = os.path.join(PROCESSING, name)
            try:
                shutil.move(os.path.join(INBOX, name), work)
            except FileNotFoundError:
                continue  # 다른 소비자가 먼저 가져감
            msg, reason = validate(work)
            if msg is None:
                shutil.move(work, os.path.join(ERROR, name))
                errors[name] = reason
                continue
            cur = conn.execute(
                "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount) "
                "VALUES (?, ?, ?, ?)",
                (str(msg["msg_id"]), str(msg["order_no"]), msg["seq"], msg["amount"]),
            )
            conn.commit()
            if cur.rowcount == 0:
                duplicates.append(str(msg["msg_id"]))
            else:
                stored += 1
            shutil.move(work, os.path.join(DONE, name))

    save_sorted_lines(os.path.join(QDIR, "dup.txt"), duplicates)
    save_error_csv(os.path.join(QDIR, "error.csv"), errors)
    print(f"stored {stored}, duplicates {len(duplicates)}, errors {len(errors)}")


if __name__ == "__main__":
    main()
'''

ALT1_SCHEMA = "\r\n".join([
    "field,type,role",
    "order_no,text,",
    "msg_id,text,idempotency-key",
    "amount,number,",
    "seq,int,sequence",
    "created_at,timestamp,",
    "currency,text,",
    "",
])

ALT1_ORDER_CHECK = """.headers on
.mode column
-- 6단계: 주문(order_no)별로 seq 가 중복되거나 빠진 주문을 찾는다.
--   중복: 행 수 <> 서로 다른 seq 수
--   누락: (최대 - 최소 + 1) <> 서로 다른 seq 수
SELECT order_no,
       COUNT(*)            AS n_rows,
       COUNT(DISTINCT seq) AS n_seq,
       MIN(seq)            AS first_seq,
       MAX(seq)            AS last_seq
FROM processed
GROUP BY order_no
HAVING COUNT(*) <> COUNT(DISTINCT seq)
    OR MAX(seq) - MIN(seq) + 1 <> COUNT(DISTINCT seq);
"""

ALT1_LAG = """#!/bin/sh
# lag.sh QUEUE_DIR THRESHOLD
[ $# -eq 2 ] || { echo "usage: $0 QUEUE_DIR THRESHOLD" >&2; exit 3; }

n() { find "$1" -maxdepth 1 -type f | wc -l; }

i=$(n "$1/inbox")
p=$(n "$1/processing")
e=$(n "$1/error")
echo "inbox=$i processing=$p error=$e"
if [ "$i" -gt "$2" ]; then
    exit 1
fi
exit 0
"""

ALT1_REPLAY = """#!/bin/sh
# replay.sh FILENAME : error/FILENAME 을 inbox/ 로 되돌린다
Q="${LAB_ROOT:-/root}/q"
f="$1"

# 경로가 아닌 파일 이름만 받는다 (../done/x.json, /tmp/x 는 거절)
if [ -z "$f" ] || [ "$(basename -- "$f")" != "$f" ]; then
    echo "usage: replay.sh FILENAME (a file in $Q/error)" >&2
    exit 2
fi
if [ ! -f "$Q/error/$f" ]; then
    echo "not in error/: $f" >&2
    exit 1
fi
mv -- "$Q/error/$f" "$Q/inbox/$f"
"""

# ---------------------------------------------------------------------------------------------
# Correct alternative 2: plain INSERT guarded by a separate UNIQUE INDEX, duplicates seen as
# sqlite3.IntegrityError, Path.rename, a Poison exception, a log file (consume.log) from which
# dup.txt and error.csv are made by hand with awk/sort (error.csv naming error/FILE paths);
# a self-join / NOT EXISTS order check; `ls | wc -l` lag.sh; replay.sh comparing realpaths;
# schema.csv with SQL type names.
# ---------------------------------------------------------------------------------------------

ALT2_CONSUME = r'''#!/usr/bin/env python3
# consume.py -- 디렉터리 큐 소비자 (3단계)
import json
import logging
import os
import sqlite3
import sys
from datetime import datetime
from pathlib import Path

Q = Path(os.getenv("LAB_ROOT", "/root")) / "q"
REQUIRED_FIELDS = ("msg_id", "order_no", "seq", "amount")

logging.basicConfig(
    filename=Q / "consume.log",
    level=logging.INFO,
    format="%(asctime)s pid=%(process)d %(levelname)s %(message)s",
)
log = logging.getLogger("consume")


class Poison(Exception):
    """A message that will fail the same way every time: it goes to error/."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def load(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise Poison("parse") from exc
    if not isinstance(data, dict):
        raise Poison("parse")
    if [f for f in REQUIRED_FIELDS if data.get(f) is None]:
        raise Poison("missing-field")
    return data


def open_ledger() -> sqlite3.Connection:
    db = sqlite3.connect(Q / "ledger.db", timeout=30)
    db.executescript("""
        CREATE TABLE IF NOT EXISTS processed (
            msg_id       TEXT NOT NULL,
            order_no     TEXT NOT NULL,
            seq          INTEGER NOT NULL,
            amount       REAL NOT NULL,
            processed_at TEXT NOT NULL
        );
        CREATE UNIQUE INDEX IF NOT EXISTS processed_msg_id ON processed (msg_id);
    """)
    return db


def store(db: sqlite3.Connection, msg: dict) -> bool:
    """True when stored; False when the UNIQUE index says the msg_id is already there."""
    row = (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"],
           datetime.now().astimezone().isoformat(timespec="seconds"))
    try:
        with db:
            db.execute("INSERT INTO processed VALUES (?, ?, ?, ?, ?)", row)
    except sqlite3.IntegrityError:
        return False
    return True


def main() -> int:
    inbox, processing = Q / "inbox", Q / "processing"
    db = open_ledger()
    for entry in sorted(inbox.iterdir()):
        work = processing / entry.name
        try:
            entry.rename(work)  # 선점: 먼저 옮긴 소비자만 처리한다
        except FileNotFoundError:
            continue
        try:
            msg = load(work)
        except Poison as poison:
            work.rename(Q / "error" / entry.name)
            log.warning("ERR %s %s", poison.reason, entry.name)
            continue
        if store(db, msg):
            log.info("OK %s %s", msg["msg_id"], entry.name)
        else:
            log.info("DUP %s %s", msg["msg_id"], entry.name)
        work.rename(Q / "done" / entry.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''

# Steps 4 and 5 done by hand in the shell, from consume.log.
ALT2_BY_HAND = """set -e
export LC_ALL=C
awk '$5 == "DUP" {print $6}' consume.log | sort -u > dup.txt
{ echo "file,reason"; awk '$5 == "ERR" {print "error/" $7 "," $6}' consume.log; } > error.csv
"""


def _alt2_by_hand(q: Path) -> None:
    subprocess.run(["bash", "-c", ALT2_BY_HAND], cwd=q, check=True)


ALT2_SCHEMA = """field,type,role
msg_id,varchar(20),idempotency-key
order_no,varchar(16),
seq,bigint,sequence
amount,decimal,
currency,char(3),
created_at,iso8601,
"""

ALT2_ORDER_CHECK = """-- order-check.sql : 같은 order_no 안의 seq 중복 / 누락
-- 1) 같은 seq 를 가진 행이 둘 이상
SELECT a.order_no, a.seq, 'duplicate' AS problem
FROM processed a
JOIN processed b
  ON b.order_no = a.order_no AND b.seq = a.seq AND b.msg_id > a.msg_id
UNION
-- 2) 다음 seq 가 없는데 그 주문의 마지막 seq 도 아닌 경우 (그 다음 번호가 빠짐)
SELECT a.order_no, a.seq + 1, 'missing'
FROM processed a
WHERE NOT EXISTS (
        SELECT 1 FROM processed b WHERE b.order_no = a.order_no AND b.seq = a.seq + 1)
  AND a.seq < (SELECT MAX(c.seq) FROM processed c WHERE c.order_no = a.order_no)
ORDER BY 1, 2;
"""

ALT2_LAG = """#!/bin/bash
dir="$1"
limit="$2"
inbox=$(ls -1 "$dir/inbox" | wc -l)
processing=$(ls -1 "$dir/processing" | wc -l)
error=$(ls -1 "$dir/error" | wc -l)
echo "inbox=$inbox processing=$processing error=$error"
if [ "$inbox" -gt "$limit" ]; then
  exit 1
fi
exit 0
"""

ALT2_REPLAY = """#!/usr/bin/env bash
set -euo pipefail
Q=${LAB_ROOT:-/root}/q
name=${1:-}
[[ -n $name ]] || { echo "usage: replay.sh FILENAME" >&2; exit 64; }

# error/ 바로 아래의 파일만: 경로를 풀어서 그 디렉터리가 error/ 인지 본다
src=$(realpath -m -- "$Q/error/$name")
if [[ $(dirname -- "$src") != "$(realpath -- "$Q/error")" || ! -f $src ]]; then
    echo "replay: $name is not a file in error/" >&2
    exit 1
fi
mv -- "$src" "$Q/inbox/"
echo "replayed: $name"
"""

# ---------------------------------------------------------------------------------------------
# Correct alternative 3: autocommit connection with explicit BEGIN IMMEDIATE, ON CONFLICT DO
# NOTHING judged by SELECT changes(), a table-level PRIMARY KEY (msg_id), processed_at from an
# strftime() DEFAULT, glob("*.json") and os.replace; error.csv appended and dup.txt appended then
# sorted by consume.py; a ROW_NUMBER order check; bash arrays in lag.sh; schema.csv rows without
# the empty role cell.
# ---------------------------------------------------------------------------------------------

ALT3_CONSUME = r'''#!/usr/bin/env python3
"""Step 3 consumer. Claim = rename into processing/; dedup = PRIMARY KEY + ON CONFLICT."""
import json
import os
import sqlite3
from pathlib import Path

ROOT = Path(os.environ.get("LAB_ROOT") or "/root") / "q"
INBOX = ROOT / "inbox"
PROCESSING = ROOT / "processing"
DONE = ROOT / "done"
ERROR = ROOT / "error"
FIELDS = ("msg_id", "order_no", "seq", "amount")


def connect():
    conn = sqlite3.connect(ROOT / "ledger.db", isolation_level=None)
    conn.execute("PRAGMA busy_timeout = 20000")
    conn.execute(
        "CREATE TABLE IF NOT EXISTS processed ("
        " msg_id TEXT NOT NULL,"
        " order_no TEXT NOT NULL,"
        " seq INTEGER NOT NULL,"
        " amount INTEGER NOT NULL,"
        " processed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),"
        " PRIMARY KEY (msg_id))"
    )
    return conn


def insert(conn, msg):
    """True if the row went in, False if this msg_id was stored before."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(
            "INSERT INTO processed (msg_id, order_no, seq, amount) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (msg_id) DO NOTHING",
            (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"]),
        )
        added = conn.execute("SELECT changes()").fetchone()[0]
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return added == 1


def check(raw):
    try:
        msg = json.loads(raw)
    except ValueError:
        return None, "parse"
    if type(msg) is not dict:
        return None, "parse"
    if any(msg.get(f) is None for f in FIELDS):
        return None, "missing-field"
    return msg, None


def note_error(name, reason):
    path = ROOT / "error.csv"
    new = not path.exists()
    with path.open("a", encoding="utf-8") as f:
        if new:
            f.write("file,reason\n")
        f.write(f"{name},{reason}\n")


def note_duplicate(msg_id):
    with (ROOT / "dup.txt").open("a", encoding="utf-8") as f:
        f.write(f"{msg_id}\n")


def tidy_dup_txt():
    path = ROOT / "dup.txt"
    ids = sorted(set(path.read_text(encoding="utf-8").split())) if path.exists() else []
    path.write_text("".join(f"{i}\n" for i in ids), encoding="utf-8")


def main():
    conn = connect()
    for src in sorted(INBOX.glob("*.json")):
        mine = PROCESSING / src.name
        try:
            os.replace(src, mine)
        except FileNotFoundError:
            continue  # lost the race for this file
        msg, reason = check(mine.read_bytes())
        if reason:
            os.replace(mine, ERROR / src.name)
            note_error(src.name, reason)
            print(f"{src.name}: {reason} -> error/")
            continue
        if insert(conn, msg):
            print(f"{src.name}: stored")
        else:
            note_duplicate(msg["msg_id"])
            print(f"{src.name}: {msg['msg_id']} already stored")
        os.replace(mine, DONE / src.name)
    tidy_dup_txt()


if __name__ == "__main__":
    main()
'''

ALT3_SCHEMA = """field,type,role
msg_id,string,idempotency-key
seq,integer,sequence
order_no,string
amount,numeric
currency,string
created_at,string
"""

ALT3_ORDER_CHECK = """-- seq must run min, min+1, min+2, ... inside each order: the n-th smallest
-- seq of an order is min + n - 1. A repeated seq or a hole pushes a row off that line.
SELECT order_no, seq, expected_seq
FROM (
    SELECT order_no, seq,
           MIN(seq) OVER (PARTITION BY order_no)
             + ROW_NUMBER() OVER (PARTITION BY order_no ORDER BY seq) - 1 AS expected_seq
    FROM processed
)
WHERE seq <> expected_seq
ORDER BY order_no, seq;
"""

ALT3_LAG = """#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD -> "inbox=<n> processing=<n> error=<n>"; exit 1 above THRESHOLD
dir=${1:?usage: lag.sh QUEUE_DIR THRESHOLD}
max=${2:?usage: lag.sh QUEUE_DIR THRESHOLD}
shopt -s nullglob dotglob
declare -A n
for sub in inbox processing error; do
    files=()
    for f in "$dir/$sub"/*; do
        [[ -f $f ]] && files+=("$f")
    done
    n[$sub]=${#files[@]}
done
printf 'inbox=%d processing=%d error=%d\\n' "${n[inbox]}" "${n[processing]}" "${n[error]}"
if (( n[inbox] > max )); then
    exit 1
fi
exit 0
"""

ALT3_REPLAY = """#!/bin/bash
# replay.sh FILENAME: error/FILENAME -> inbox/FILENAME
Q="${LAB_ROOT:-/root}/q"
file="$1"
if [[ -z $file || $file == */* || $file == . || $file == .. ]]; then
    echo "replay.sh: give a file name from $Q/error" >&2
    exit 64
fi
if [[ ! -f $Q/error/$file ]]; then
    echo "replay.sh: $file is not in error/" >&2
    exit 1
fi
if [[ -e $Q/inbox/$file ]]; then
    echo "replay.sh: inbox/$file exists already" >&2
    exit 1
fi
mv -- "$Q/error/$file" "$Q/inbox/$file" || exit 1
echo "replayed $file"
"""

CORRECT: list[Variant] = [
    Variant(
        "or-ignore-surrogate-key-writes-own-files",
        "INSERT OR IGNORE + rowcount, id INTEGER PRIMARY KEY with msg_id UNIQUE NOT NULL, "
        "processed_at DEFAULT CURRENT_TIMESTAMP, shutil.move, while-True re-listing, consume.py "
        "writes dup.txt/error.csv (merged, sorted); GROUP BY order check with dot-commands; "
        "find | wc -l lag.sh exiting 1; POSIX sh replay.sh with basename; CRLF schema.csv "
        "with text/int/number/timestamp in another order",
        (
            Replace("consume.py", ALT1_CONSUME),
            Replace("schema.csv", ALT1_SCHEMA),
            Replace("order-check.sql", ALT1_ORDER_CHECK),
            Replace("lag.sh", ALT1_LAG),
            Replace("replay.sh", ALT1_REPLAY),
        ),
    ),
    Variant(
        "integrity-error-unique-index-by-hand",
        "plain INSERT under a separate CREATE UNIQUE INDEX, duplicate = IntegrityError, "
        "Path.rename, a log file from which dup.txt/error.csv are made by hand with awk|sort "
        "(error.csv naming error/FILE); self-join + NOT EXISTS order check; ls | wc -l lag.sh; "
        "realpath-checking replay.sh; SQL type names in schema.csv",
        (
            Replace("consume.py", ALT2_CONSUME),
            Replace("schema.csv", ALT2_SCHEMA),
            Replace("order-check.sql", ALT2_ORDER_CHECK),
            Replace("lag.sh", ALT2_LAG),
            Replace("replay.sh", ALT2_REPLAY),
        ),
        tamper=_alt2_by_hand,
    ),
    Variant(
        "begin-immediate-changes-appends-files",
        "autocommit connection, BEGIN IMMEDIATE + ON CONFLICT DO NOTHING judged by changes(), "
        "table-level PRIMARY KEY (msg_id), processed_at DEFAULT (strftime(...)), glob('*.json') "
        "and os.replace, error.csv/dup.txt appended by consume.py (dup.txt sorted at the end); "
        "ROW_NUMBER order check; bash-array lag.sh; schema.csv without empty role cells",
        (
            Replace("consume.py", ALT3_CONSUME),
            Replace("schema.csv", ALT3_SCHEMA),
            Replace("order-check.sql", ALT3_ORDER_CHECK),
            Replace("lag.sh", ALT3_LAG),
            Replace("replay.sh", ALT3_REPLAY),
        ),
    ),
    Variant(
        "claims-into-its-own-subfolder",
        "each consumer claims into processing/<its pid>/ (a sign of ownership for crash "
        "recovery, as the notes suggest) and removes that folder when it ends",
        (
            Edit("consume.py", "REQUIRED = (",
                 "MINE = PROCESSING / f\"consumer-{os.getpid()}\"\nREQUIRED = ("),
            Edit("consume.py", "        os.rename(INBOX / name, PROCESSING / name)\n",
                 "        os.rename(INBOX / name, MINE / name)\n"),
            Edit("consume.py", "    return PROCESSING / name\n", "    return MINE / name\n"),
            Edit("consume.py", "    db.execute(SCHEMA)\n", "    db.execute(SCHEMA)\n    MINE.mkdir()\n"),
            Edit("consume.py", "    return 0\n",
                 "    MINE.rmdir()  # processing/ is empty again\n    return 0\n"),
        ),
    ),
]

# ---------------------------------------------------------------------------------------------
# Mistakes. Each is the reference with one realistic mistake.
# ---------------------------------------------------------------------------------------------

HARD_CODED_TEMPLATE = r'''#!/usr/bin/env python3
"""Step 3, the result of the fixture run written down (the consumer "worked" once)."""
import os
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

Q = Path(os.environ.get("LAB_ROOT", "/root")) / "q"
WHERE = {where}
ROWS = {rows}
DUPLICATES = {duplicates}
ERRORS = {errors}


def main():
    for name, dest in sorted(WHERE.items()):
        src = Q / "inbox" / name
        if not src.exists():
            continue
        os.rename(src, Q / "processing" / name)
        os.rename(Q / "processing" / name, Q / dest / name)
    db = sqlite3.connect(Q / "ledger.db", timeout=30)
    now = datetime.now(timezone.utc).isoformat()
    with db:
        db.execute(
            "CREATE TABLE IF NOT EXISTS processed (msg_id TEXT PRIMARY KEY, order_no TEXT, "
            "seq INTEGER, amount INTEGER, processed_at TEXT)"
        )
        db.executemany(
            "INSERT OR IGNORE INTO processed VALUES (?, ?, ?, ?, ?)",
            [row + (now,) for row in ROWS],
        )
    (Q / "dup.txt").write_text("".join(i + "\n" for i in DUPLICATES))
    (Q / "error.csv").write_text(
        "file,reason\n" + "".join(f"{{n}},{{r}}\n" for n, r in sorted(ERRORS.items()))
    )


if __name__ == "__main__":
    main()
'''


def _hard_coded_consume() -> str:
    """A consume.py that replays the fixture run from a table made from the fixture itself."""
    golden = golden_set()
    rows = [
        (str(m["msg_id"]), m["order_no"], m["seq"], m["amount"])
        for m in golden.messages.values()
    ]
    return HARD_CODED_TEMPLATE.format(
        where=repr({f.name: f.ends_in for f in golden.files}),
        rows=repr(rows),
        duplicates=repr(golden.duplicate_ids),
        errors=repr(golden.error_reasons),
    )


# consume.py edits that collect the duplicates and write dup.txt at the end of the run.
_COLLECT_DUPLICATES = Edit(
    "consume.py",
    "    for name in sorted(os.listdir(INBOX)):\n",
    "    duplicates: list[str] = []\n    for name in sorted(os.listdir(INBOX)):\n",
)


def _write_dup_txt(expression: str) -> Edit:
    return Edit(
        "consume.py",
        "        os.rename(path, DONE / name)\n",
        "        if not inserted:\n"
        f"            duplicates.append({expression})\n"
        "        os.rename(path, DONE / name)\n",
    )


_REFERENCE_PARSE_REASONS = """    except (UnicodeDecodeError, json.JSONDecodeError):
        return None, "parse"
    if not isinstance(message, dict):
        return None, "parse"
    if any(message.get(field) is None for field in REQUIRED):
        return None, "missing-field"
"""

NAIVE_REPLAY = """#!/usr/bin/env bash
# Step 8: replay.sh FILENAME -- move error/FILENAME back to inbox/ for another try.
set -u
q="${LAB_ROOT:-/root}/q"
name=${1-}

if [ ! -f "$q/error/$name" ]; then
    echo "replay: error/$name does not exist" >&2
    exit 1
fi
mv "$q/error/$name" "$q/inbox/" && echo "replayed $name"
"""

WRONG: list[Variant] = [
    # First: its grading takes ~90 s (killed at the consume timeouts), so it overlaps the rest.
    Variant(
        "waits-for-empty-file",
        "'wait until the producer has finished writing': an empty message makes the consumer "
        "sleep forever (the fixture has none)",
        (
            Edit("consume.py", "import sys\n", "import sys\nimport time\n"),
            Edit("consume.py", "        message = json.loads(path.read_bytes())\n",
                 "        while path.stat().st_size == 0:  # still being written: wait\n"
                 "            time.sleep(0.1)\n"
                 "        message = json.loads(path.read_bytes())\n"),
        ),
        rejected_on="Q3.3",
    ),
    Variant(
        "read-straight-from-inbox",
        "lab mistake 3: reads and stores the file in inbox/, then moves it to done/ directly",
        (
            Edit("consume.py", "        path = claim(name)\n        if path is None:\n"
                 "            continue  # another consumer got it first\n",
                 "        path = INBOX / name\n"),
        ),
        rejected_on="Q3.4",
    ),
    Variant(
        "select-then-insert",
        "lab mistake 2: no constraint on msg_id; duplicates decided by SELECT then INSERT",
        (
            Edit("consume.py", "msg_id       TEXT PRIMARY KEY,", "msg_id       TEXT NOT NULL,"),
            Edit("consume.py", "ON CONFLICT (msg_id) DO NOTHING", ""),
            Edit("consume.py",
                 "            inserted = db.execute(INSERT, row).rowcount == 1\n",
                 "            seen = db.execute(\"SELECT 1 FROM processed WHERE msg_id = ?\",\n"
                 "                              (row[0],)).fetchone()\n"
                 "            inserted = seen is None\n"
                 "            if inserted:\n"
                 "                db.execute(INSERT, row)\n"),
        ),
        rejected_on="Q3.1",
    ),
    Variant(
        "poison-back-to-inbox",
        "lab mistake 1: a message that fails to parse goes back to inbox/",
        (Edit("consume.py", "os.rename(path, ERROR / name)", "os.rename(path, INBOX / name)"),),
        rejected_on="Q3.8",
    ),
    Variant(
        "seq-not-required",
        "seq left out of the required fields: a message without seq crashes the consumer "
        "(KeyError) instead of going to error/ (the fixture only lacks amount, so it passes)",
        (Edit("consume.py", 'REQUIRED = ("msg_id", "order_no", "seq", "amount")',
              'REQUIRED = ("msg_id", "order_no", "amount")'),),
        rejected_on="Q3.3",
    ),
    Variant(
        "null-is-not-missing",
        "a required field is checked for presence only, so a null value reaches the NOT NULL "
        "column and the consumer dies with IntegrityError",
        (Edit("consume.py", "if any(message.get(field) is None for field in REQUIRED):",
              "if any(field not in message for field in REQUIRED):"),),
        rejected_on="Q3.3",
    ),
    Variant(
        "wipe-ledger-each-run",
        "consume.py drops and re-creates processed on every run ('re-runnable'): a rerun adds "
        "no row only because the earlier rows are gone",
        (Edit("consume.py", "    db.execute(SCHEMA)\n",
              "    db.execute(\"DROP TABLE IF EXISTS processed\")\n    db.execute(SCHEMA)\n"),),
        rejected_on="Q3.6",
    ),
    Variant(
        "duplicates-stay-in-processing",
        "a duplicate is 'ignored' by leaving its file where it is: processing/ is not empty",
        (Edit("consume.py",
              "        os.rename(path, DONE / name)\n"
              "        print(f\"done {name}\" if inserted else "
              "f\"duplicate {message['msg_id']} {name}\")\n",
              "        if not inserted:\n"
              "            print(f\"duplicate {message['msg_id']} {name}\")\n"
              "            continue  # already in the ledger: nothing to do\n"
              "        os.rename(path, DONE / name)\n"
              "        print(f\"done {name}\")\n"),),
        rejected_on="Q3.2",
    ),
    Variant(
        "processed-at-never-filled",
        "processed_at column exists (nullable) but the INSERT never fills it",
        (
            Edit("consume.py", "processed_at TEXT    NOT NULL", "processed_at TEXT"),
            Edit("consume.py",
                 "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) "
                 "VALUES (?, ?, ?, ?, ?)",
                 "INSERT INTO processed (msg_id, order_no, seq, amount) VALUES (?, ?, ?, ?)"),
            Edit("consume.py",
                 "        now = datetime.now(timezone.utc).isoformat()\n"
                 "        row = (message[\"msg_id\"], message[\"order_no\"], message[\"seq\"], "
                 "message[\"amount\"], now)\n",
                 "        row = (message[\"msg_id\"], message[\"order_no\"], message[\"seq\"], "
                 "message[\"amount\"])\n"),
        ),
        rejected_on="Q3.5",
    ),
    Variant(
        "insert-or-replace",
        "INSERT OR REPLACE instead of ignoring: every duplicate 'succeeds' (rowcount 1), so no "
        "duplicate is ever noticed and dup.txt stays empty",
        (
            Edit("consume.py", "\nINSERT INTO processed", "\nINSERT OR REPLACE INTO processed"),
            Edit("consume.py", "\nON CONFLICT (msg_id) DO NOTHING", ""),
        ),
        rejected_on="Q4.3",
    ),
    Variant(
        "dup-txt-descending",
        "consume.py writes dup.txt itself, newest-first (sorted descending)",
        (
            _COLLECT_DUPLICATES,
            _write_dup_txt("str(message['msg_id'])"),
            Edit("consume.py", "    return 0\n",
                 "    (Q / \"dup.txt\").write_text(\n"
                 "        \"\".join(f\"{d}\\n\" for d in sorted(duplicates, reverse=True)))\n"
                 "    return 0\n"),
        ),
        rejected_on="Q4.3",
    ),
    Variant(
        "dup-txt-file-names",
        "consume.py writes dup.txt itself, with the duplicate files' names instead of msg_ids",
        (
            _COLLECT_DUPLICATES,
            _write_dup_txt("name"),
            Edit("consume.py", "    return 0\n",
                 "    (Q / \"dup.txt\").write_text(\n"
                 "        \"\".join(f\"{d}\\n\" for d in sorted(duplicates)))\n"
                 "    return 0\n"),
        ),
        rejected_on="Q4.3",
    ),
    Variant(
        "error-reasons-swapped",
        "the two reasons mixed up: a parse failure is logged missing-field and vice versa",
        (Edit("consume.py", _REFERENCE_PARSE_REASONS,
              _REFERENCE_PARSE_REASONS.replace('"parse"', '"PARSE"')
              .replace('"missing-field"', '"parse"').replace('"PARSE"', '"missing-field"')),),
        rejected_on="Q5.1",
    ),
    Variant(
        "order-check-duplicates-only",
        "order-check.sql finds a repeated seq (GROUP BY ... HAVING COUNT(*) > 1) but no hole",
        (Replace("order-check.sql",
                 "-- Step 6: a seq that appears more than once within one order_no.\n"
                 "SELECT order_no, seq, COUNT(*) AS copies\n"
                 "FROM processed\n"
                 "GROUP BY order_no, seq\n"
                 "HAVING COUNT(*) > 1;\n"),),
        rejected_on="Q6.3",
    ),
    Variant(
        "order-check-seq-as-text",
        "the window orders seq as text (1, 10, 11, 2, ...): clean orders past seq 9 show up",
        (Edit("order-check.sql", "ORDER BY seq) AS prev_seq",
              "ORDER BY CAST(seq AS TEXT)) AS prev_seq"),),
        rejected_on="Q6.4",
    ),
    Variant(
        "seq-stored-as-text",
        "consume.py declares seq TEXT, so the (reference) order check sorts it as text",
        (Edit("consume.py", "seq          INTEGER NOT NULL,", "seq          TEXT    NOT NULL,"),),
        rejected_on="Q6.4",
    ),
    Variant(
        "lag-alarm-at-equality",
        "lag.sh alarms when inbox equals the threshold (-lt instead of -le)",
        (Edit("lag.sh", '[ "$inbox" -le "$threshold" ] || exit 2',
              '[ "$inbox" -lt "$threshold" ] || exit 2'),),
        rejected_on="Q7.2",
    ),
    Variant(
        "lag-ignores-queue-dir",
        "lag.sh counts the student's own queue, not the QUEUE_DIR it is given",
        (Edit("lag.sh", "queue=$1 threshold=$2", 'queue="${LAB_ROOT:-/root}/q" threshold=$2'),),
        rejected_on="Q7.1",
    ),
    Variant(
        "replay-trusts-the-name",
        "replay.sh checks only that error/NAME is a file, then `mv` into inbox/: "
        "'../done/x.json' moves a file out of done/",
        (Replace("replay.sh", NAIVE_REPLAY),),
        rejected_on="Q8.3",
    ),
    Variant(
        "replay-exit-0-when-missing",
        "replay.sh treats 'nothing to replay' as success (exit 0)",
        (Edit("replay.sh", 'echo "replay: error/$name does not exist" >&2\n    exit 1',
              'echo "replay: error/$name does not exist" >&2\n    exit 0'),),
        rejected_on="Q8.2",
    ),
    Variant(
        "rename-race-crash",
        "claim() without try/except: the consumer that loses a rename race dies with "
        "FileNotFoundError",
        (Edit("consume.py",
              "    try:\n        os.rename(INBOX / name, PROCESSING / name)\n"
              "    except FileNotFoundError:\n        return None\n",
              "    os.rename(INBOX / name, PROCESSING / name)\n"),),
        rejected_on="Q3.7",
    ),
    Variant(
        "hard-coded-fixture-run",
        "consume.py moves the fixture's file names by a written-down table and inserts the "
        "fixture's rows, processing nothing",
        (Replace("consume.py", _hard_coded_consume()),),
        rejected_on="Q3.3",
    ),
    Variant(
        "schema-required-fields-only",
        "schema.csv lists only the four required fields, not every field of the messages",
        (Replace("schema.csv",
                 "field,type,role\nmsg_id,string,idempotency-key\norder_no,string,\n"
                 "seq,integer,sequence\namount,integer,\n"),),
        rejected_on="Q2.2",
    ),
]
