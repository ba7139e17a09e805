# 사용법: python3 consumer.py --claim http://127.0.0.1:9202 --max-seconds 30 [--prefetch 5]
#
# 201      -> 기록하고 ack
# 422      -> 업무 거절, basic_nack(requeue=False) 로 DLX 행
# 그 밖    -> 처음이면 basic_reject(requeue=True) 로 한 번 되돌림
#             redelivered 인데 또 실패면 basic_nack(requeue=False) 로 DLX 행
# (reject 와 nack 은 한 건일 때 같은 일을 한다 - nack 은 multiple 만 더 있음)
import argparse
import json
import os
import sqlite3
import time
import urllib.error
import urllib.request

import pika

parser = argparse.ArgumentParser()
parser.add_argument("--claim", required=True)
parser.add_argument("--max-seconds", type=float, required=True)
parser.add_argument("--prefetch", type=int, default=5)
args = parser.parse_args()

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
db_path = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
post_url = args.claim.rstrip("/") + "/v1/claims"

# 처리 기록 - autocommit 모드라서 execute 하면 바로 파일에 들어감
db = sqlite3.connect(db_path, isolation_level=None)
db.execute("create table if not exists done (message_id text primary key, t real)")


def 처리했나(mid):
    return db.execute("select count(*) from done where message_id = ?", (mid,)).fetchone()[0] > 0


def 기록(mid):
    db.execute("insert or ignore into done values (?, ?)", (mid, time.time()))


def 청구보내기(body):
    # 상태코드를 돌려줌. 연결 실패/시간 초과면 None
    req = urllib.request.Request(post_url, data=body, method="POST")
    req.add_header("Content-Type", "application/json")
    try:
        resp = urllib.request.urlopen(req, timeout=3)
        code = resp.status
        resp.close()
        return code
    except urllib.error.HTTPError as e:
        return e.code
    except Exception as e:
        print("  연결 문제:", e)
        return None


conn = pika.BlockingConnection(pika.URLParameters(url))
ch = conn.channel()
ch.basic_qos(prefetch_count=args.prefetch)   # consume 전에!

끝 = time.time() + args.max_seconds
for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
    if time.time() >= 끝:
        break
    if method is None:          # 쉬는 중
        continue

    tag = method.delivery_tag
    mid = props.message_id
    if not mid:                 # 혹시 message_id 없이 온 것은 본문 guid 로
        try:
            mid = json.loads(body).get("guid")
        except ValueError:
            mid = None

    if mid and 처리했나(mid):
        print("중복", mid, "-> ack 만")
        ch.basic_ack(tag)
        continue

    code = 청구보내기(body)
    if code == 201:
        if mid:
            기록(mid)           # 기록 먼저
        ch.basic_ack(tag)       # 그 다음 ack
        print("성공", mid)
    elif code == 422:
        print("서류 미비", mid, "-> DLQ")
        ch.basic_nack(tag, requeue=False)
    elif method.redelivered:
        print("또 실패", mid, code, "-> DLQ")
        ch.basic_nack(tag, requeue=False)
    else:
        print("일시 오류", mid, code, "-> 한 번 되돌림")
        ch.basic_reject(tag, requeue=True)

ch.cancel()        # 받아 두고 처리 못 한 것은 돌려줌
conn.close()
print("끝")
