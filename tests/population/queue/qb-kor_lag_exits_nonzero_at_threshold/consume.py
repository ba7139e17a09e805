#!/usr/bin/env python3
# consume.py  (파일 큐 소비자)
# 순서: inbox 에서 하나 꺼내 processing 으로 rename -> 읽기 -> 검사 -> DB 적재 -> done
#       파싱 실패/필수 필드 누락 -> error  (재시도 X)
import json, os, sqlite3, sys, datetime

ROOT = os.path.join(os.environ.get("LAB_ROOT", "/root"), "q")
IN, PR, DN, ER = [os.path.join(ROOT, x) for x in ("inbox", "processing", "done", "error")]


def main():
    for d in (IN, PR, DN, ER):
        os.makedirs(d, exist_ok=True)
    db = sqlite3.connect(os.path.join(ROOT, "ledger.db"), timeout=30)
    db.execute("create table if not exists processed ("
               " msg_id text not null unique,"      # 멱등키 -> UNIQUE 제약
               " order_no text not null,"
               " seq integer not null,"
               " amount numeric not null,"
               " processed_at text not null)")
    db.commit()
    결과 = {"done": 0, "error": 0, "dup": 0}
    while True:
        files = sorted(f for f in os.listdir(IN) if os.path.isfile(os.path.join(IN, f)))
        if not files:
            break
        for f in files:
            p = os.path.join(PR, f)
            try:
                os.rename(os.path.join(IN, f), p)
            except OSError:
                continue  # 이미 누가 가져감
            try:
                with open(p, "rb") as fp:
                    m = json.load(fp)
                ok = isinstance(m, dict)
                why = "parse" if not ok else None
            except ValueError:
                m, why = None, "parse"
            if why is None and any(m.get(k) is None for k in ("msg_id", "order_no", "seq", "amount")):
                why = "missing-field"  # 키 없음 또는 null
            if why:
                os.rename(p, os.path.join(ER, f))
                결과["error"] += 1
                print("error", f, why)
                continue
            try:
                with db:
                    db.execute("insert into processed values (?,?,?,?,?)",
                               (m["msg_id"], m["order_no"], m["seq"], m["amount"],
                                datetime.datetime.now().astimezone().isoformat()))
            except sqlite3.IntegrityError:
                결과["dup"] += 1
                print("dup", f, m["msg_id"])  # 중복: UNIQUE 제약이 막아줌
            os.rename(p, os.path.join(DN, f))
            결과["done"] += 1
    db.close()
    print(결과)
    return 0


if __name__ == "__main__":
    sys.exit(main())
