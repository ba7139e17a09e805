#!/usr/bin/env python3
# consume.py -- DB 는 sqlite3 CLI 로 (쉘에서 쓰던 그대로), 이동은 mv
# 동시 실행 대비: mv(rename) 로 claim, DB 는 UNIQUE 인덱스 + ON CONFLICT DO NOTHING,
# CLI 는 기본 busy timeout 이 0 이라 .timeout 을 꼭 줘야 함 (안주면 database is locked)
import json
import os
import subprocess
import sys

Q = "/root/q"
DB = Q + "/ledger.db"
NEED = ["msg_id", "order_no", "seq", "amount"]

DDL = """
CREATE TABLE IF NOT EXISTS processed (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    msg_id       TEXT NOT NULL,
    order_no     TEXT NOT NULL,
    seq          INTEGER NOT NULL,
    amount       REAL NOT NULL,
    processed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
    src_file     TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS ux_processed_msg_id ON processed(msg_id);
CREATE INDEX IF NOT EXISTS ix_processed_order ON processed(order_no, seq);
"""


def sqlite(script):
    r = subprocess.run(
        ["sqlite3", "-batch", "-bail", "-cmd", ".timeout 30000", DB],
        input=script, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("sqlite3 failed: " + r.stderr.strip())
    return r.stdout.strip()


def lit(v):
    # SQL 리터럴 만들기. 문자열은 ' -> '' 로 이스케이프
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, (int, float)):
        return json.dumps(v)
    if not isinstance(v, str):
        v = json.dumps(v, ensure_ascii=False)
    return "'" + v.replace("'", "''") + "'"


def mv(src, dst_dir):
    # 같은 파일시스템이라 mv = rename. 이미 누가 가져갔으면 rc != 0
    r = subprocess.run(["mv", "--", src, dst_dir + "/"], capture_output=True)
    return r.returncode == 0


def main():
    sqlite(DDL)
    for name in sorted(os.listdir(Q + "/inbox")):
        src = Q + "/inbox/" + name
        if not os.path.isfile(src):
            continue
        if not mv(src, Q + "/processing"):
            continue  # 다른 consumer
        path = Q + "/processing/" + name
        try:
            with open(path, encoding="utf-8") as f:
                m = json.load(f)
            if not isinstance(m, dict):
                raise ValueError("not an object")
        except ValueError:  # JSONDecodeError, UnicodeDecodeError 둘다 ValueError
            print("error parse", name)
            mv(path, Q + "/error")
            continue
        if any(m.get(k) is None for k in NEED):
            print("error missing-field", name)
            mv(path, Q + "/error")
            continue
        out = sqlite(
            "INSERT INTO processed (msg_id, order_no, seq, amount, src_file) VALUES ("
            + ", ".join(lit(m[k]) for k in NEED) + ", " + lit(name) + ")"
            + " ON CONFLICT(msg_id) DO NOTHING;\nSELECT changes();\n")
        print(("dup " if out == "0" else "ok ") + str(m["msg_id"]), name)
        mv(path, Q + "/done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
