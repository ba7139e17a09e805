# -*- coding: utf-8 -*-
# consume.py  (Windows 노트북에서 작성, VS Code / CRLF)
# 사용법:  python3 consume.py            -> 큐 처리
#          python3 consume.py --report   -> 처리 + dup.txt / error.csv 작성 (BOM, CRLF: 엑셀에서 바로 열리게)
import json
import sqlite3
import sys
from datetime import datetime
from pathlib import Path

ROOT = Path("/root/q")
INBOX = ROOT / "inbox"
PROCESSING = ROOT / "processing"
DONE = ROOT / "done"
ERROR = ROOT / "error"
LEDGER = ROOT / "ledger.db"
필수 = ["msg_id", "order_no", "seq", "amount"]


def 판정(path):
    """(메시지, 사유) 반환. 사유가 None 이면 정상."""
    try:
        text = path.read_bytes().decode("utf-8-sig")
        msg = json.loads(text)
    except (UnicodeError, ValueError, RecursionError):
        return None, "parse"
    if type(msg) is not dict:
        return None, "parse"
    if [k for k in 필수 if msg.get(k) is None]:
        return None, "missing-field"
    return msg, None


def db_열기():
    con = sqlite3.connect(str(LEDGER), timeout=60)
    con.execute("PRAGMA busy_timeout=60000")
    with con:
        con.execute(
            "CREATE TABLE IF NOT EXISTS processed ("
            " msg_id TEXT NOT NULL UNIQUE,"
            " order_no TEXT, seq INTEGER, amount REAL,"
            " processed_at TEXT NOT NULL)"
        )
    return con


def 값(v):
    return v if isinstance(v, (str, int, float)) else json.dumps(v, ensure_ascii=False)


def main(report):
    for d in (INBOX, PROCESSING, DONE, ERROR):
        d.mkdir(parents=True, exist_ok=True)
    con = db_열기()
    dups, errors = [], []
    while True:                       # inbox 가 빌 때까지 (처리 중 새로 들어온 파일도)
        claimed = 0
        for src in sorted(INBOX.iterdir()):
            work = PROCESSING / src.name
            try:
                src.rename(work)      # 같은 파일시스템 -> 원자적. 이걸로 '내 것' 이 됨
            except FileNotFoundError:
                continue              # 다른 소비자가 먼저 가져감
            claimed += 1
            msg, reason = 판정(work) if work.is_file() else (None, "parse")
            if reason:
                work.replace(ERROR / src.name)
                errors.append((src.name, reason))
                continue
            stamp = datetime.now().astimezone().strftime("%Y-%m-%d %H:%M:%S.%f%z")
            with con:
                cur = con.execute(
                    "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (값(msg["msg_id"]), 값(msg["order_no"]), 값(msg["seq"]), 값(msg["amount"]), stamp),
                )
            if cur.rowcount == 0:
                dups.append(str(msg["msg_id"]))
            work.replace(DONE / src.name)
        if claimed == 0:
            break
    con.close()
    print(f"error {len(errors)}, duplicate {len(dups)}")
    if report:
        with open(ROOT / "dup.txt", "w", encoding="utf-8-sig", newline="\r\n") as f:
            f.write("\n".join(sorted(set(dups))))          # 마지막 줄바꿈 없음 (메모장 스타일)
        with open(ROOT / "error.csv", "w", encoding="utf-8-sig", newline="\r\n") as f:
            f.write("file,reason\n")
            for name, reason in sorted(errors):
                f.write(f"{name},{reason}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main("--report" in sys.argv[1:]))
