import argparse
import json
import os
import sqlite3
import time

import pika
import requests

p = argparse.ArgumentParser()
p.add_argument('--claim', required=True)
p.add_argument('--max-seconds', type=float, required=True)
p.add_argument('--prefetch', type=int, default=5)
args = p.parse_args()

url = os.environ.get('EAI_AMQP_URL', 'amqp://guest:guest@127.0.0.1:5672/%2F')
DB_PATH = os.environ.get('EAI_MQ_DB', '/root/eaimw/mq/processed.db')

# --- processed record -------------------------------------------------------------
# v1 kept a JSON list next to the db path (processed.json). v2: SQLite, INSERT OR IGNORE,
# rowcount tells whether the id was new.
SEEN_JSON = os.path.splitext(DB_PATH)[0] + '.json'


def load_seen():
    try:
        with open(SEEN_JSON) as f:
            return set(json.load(f))
    except FileNotFoundError:
        return set()


db = sqlite3.connect(DB_PATH)
db.execute('CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, processed_at TEXT)')
db.commit()

seen = load_seen()


def save_seen(message_id):
    cur = db.execute('INSERT OR IGNORE INTO processed (message_id, processed_at) VALUES (?, ?)',
                     (message_id, time.strftime('%Y-%m-%dT%H:%M:%S')))
    db.commit()
    if cur.rowcount == 0:
        print('  (already in db)', message_id)
    seen.add(message_id)


# --- claim system -----------------------------------------------------------------
def post_claim(body, timeout):
    try:
        r = requests.post(args.claim.rstrip('/') + '/v1/claims', data=body,
                          headers={'Content-Type': 'application/json'}, timeout=timeout)
        return r.status_code
    except requests.RequestException as e:
        print('  transient error:', type(e).__name__)
        return None


# --- consumer ---------------------------------------------------------------------
deadline = time.monotonic() + args.max_seconds


def on_message(ch, method, props, body):
    if time.monotonic() >= deadline:
        return   # out of time: leave it unacked, the broker gives it back on close
    mid = props.message_id
    if mid in seen:
        print('duplicate', mid)
        ch.basic_ack(method.delivery_tag)
        return
    left = deadline - time.monotonic()
    status = post_claim(body, timeout=min(5, max(1, left)))
    print(mid, status, 'redelivered' if method.redelivered else '')
    if status == 201:
        save_seen(mid)
        ch.basic_ack(method.delivery_tag)
    elif status == 422:
        ch.basic_reject(method.delivery_tag, requeue=False)
    elif method.redelivered:
        ch.basic_reject(method.delivery_tag, requeue=False)
    else:
        ch.basic_nack(method.delivery_tag, requeue=True)


connection = pika.BlockingConnection(pika.URLParameters(url))
channel = connection.channel()
channel.basic_qos(prefetch_count=args.prefetch)
channel.basic_consume('claim.in', on_message, auto_ack=False)

while True:
    left = deadline - time.monotonic()
    if left <= 0:
        break
    connection.process_data_events(time_limit=min(0.5, left))

connection.close()
db.close()
