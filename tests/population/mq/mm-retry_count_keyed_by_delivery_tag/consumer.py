# consumer.py --claim URL --max-seconds N [--prefetch 5]
#
# retries: I don't use method.redelivered. it is also True when a consumer died holding
# the message (it never failed, it just wasn't finished), so a claim could go to the DLQ
# after one real failure + one crash. instead I count the failures myself:
#   failures[tag] = how many times this delivery failed with a transient error
# 1st failure -> requeue, 2nd -> dead letter.
import argparse
import os
import sqlite3
import sys
import time

import pika
import requests

p = argparse.ArgumentParser()
p.add_argument('--claim', required=True)
p.add_argument('--max-seconds', type=float, required=True)
p.add_argument('--prefetch', type=int, default=5)
a = p.parse_args()

AMQP = os.environ.get('EAI_AMQP_URL', 'amqp://guest:guest@127.0.0.1:5672/%2F')
DB = os.environ.get('EAI_MQ_DB', '/root/eaimw/mq/processed.db')
TIMEOUT = 3.0
MAX_FAILURES = 2

end = time.monotonic() + a.max_seconds
url = a.claim.rstrip('/') + '/v1/claims'

db = sqlite3.connect(DB, timeout=10)
db.execute('create table if not exists processed (message_id text primary key, at real)')
db.commit()

failures = {}


def log(*x):
    print(time.strftime('%T'), *x, file=sys.stderr, flush=True)


conn = pika.BlockingConnection(pika.URLParameters(AMQP))
ch = conn.channel()
ch.basic_qos(prefetch_count=a.prefetch)

for m, props, body in ch.consume('claim.in', inactivity_timeout=0.5):
    if time.monotonic() >= end:
        break
    if m is None:
        continue
    tag, mid = m.delivery_tag, props.message_id

    if db.execute('select 1 from processed where message_id=?', (mid,)).fetchone():
        ch.basic_ack(tag)
        log('dup', mid)
        continue

    left = end - time.monotonic()
    try:
        r = requests.post(url, data=body, headers={'Content-Type': 'application/json'},
                          timeout=max(0.1, min(TIMEOUT, left)))
        code = r.status_code
    except requests.RequestException as e:
        code = None
        log('error', mid, type(e).__name__)
        if time.monotonic() >= end:   # ran out of time mid-call: give it back, stop
            ch.basic_nack(tag, requeue=True)
            break

    if code == 201:
        db.execute('insert or ignore into processed values (?, ?)', (mid, time.time()))
        db.commit()
        ch.basic_ack(tag)
        log('201', mid)
    elif code == 422:
        ch.basic_reject(tag, requeue=False)
        log('422 -> dlq', mid)
    else:
        failures[tag] = failures.get(tag, 0) + 1
        if failures[tag] >= MAX_FAILURES:
            ch.basic_reject(tag, requeue=False)
            log(code, 'failed twice -> dlq', mid)
        else:
            ch.basic_nack(tag, requeue=True)
            log(code, 'requeue', mid)

conn.close()
db.close()
log('bye')
