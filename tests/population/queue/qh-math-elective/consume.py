#!/usr/bin/env python3
# 파일 큐 소비자. 짧게.
#   선점 = rename (원자적), 멱등 = PRIMARY KEY + INSERT OR IGNORE, 독약 = error/ 격리
import json, os, sqlite3, time
from pathlib import Path

Q = Path('/root/q')
IN, PR, DN, ER = (Q / d for d in ('inbox', 'processing', 'done', 'error'))
NEED = ('msg_id', 'order_no', 'seq', 'amount')


def verdict(b):
    try:
        m = json.loads(b)
    except (ValueError, RecursionError):      # 깨진 JSON, 깨진 UTF-8 모두 ValueError
        return None, 'parse'
    if not isinstance(m, dict):
        return None, 'parse'
    if any(m.get(k) is None for k in NEED):   # null == 없음. 0 과 "" 는 있음
        return None, 'missing-field'
    return m, None


for d in (IN, PR, DN, ER):
    d.mkdir(parents=True, exist_ok=True)
db = sqlite3.connect(Q / 'ledger.db', timeout=30)
db.execute('create table if not exists processed (msg_id text primary key, order_no text, '
           'seq integer, amount numeric, processed_at text not null)')
db.commit()

for f in sorted(p for p in IN.iterdir() if p.is_file()):
    w = PR / f.name
    try:
        f.rename(w)                           # 선점
    except FileNotFoundError:
        continue                              # 진 쪽은 그냥 다음 파일로
    m, why = verdict(w.read_bytes())
    if why:
        w.rename(ER / f.name)
        continue
    with db:
        db.execute('insert or ignore into processed values (?,?,?,?,?)',
                   (m['msg_id'], m['order_no'], m['seq'], m['amount'],
                    time.strftime('%Y-%m-%dT%H:%M:%S%z')))
    w.rename(DN / f.name)
db.close()
