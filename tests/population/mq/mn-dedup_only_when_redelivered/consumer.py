import argparse
import os
import sqlite3
import time

import pika
import requests

AMQP = os.environ.get('EAI_AMQP_URL', 'amqp://guest:guest@127.0.0.1:5672/%2F')
DB = os.environ.get('EAI_MQ_DB', '/root/eaimw/mq/processed.db')
TIMEOUT = 3


class Processed:
    def __init__(self, path):
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self.db = sqlite3.connect(path)
        self.db.execute('CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, at REAL)')
        self.db.commit()

    def has(self, mid):
        return self.db.execute('SELECT 1 FROM processed WHERE message_id = ?', (mid,)).fetchone() is not None

    def add(self, mid):
        self.db.execute('INSERT OR IGNORE INTO processed VALUES (?, ?)', (mid, time.time()))
        self.db.commit()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--claim', required=True)
    ap.add_argument('--max-seconds', type=float, required=True)
    ap.add_argument('--prefetch', type=int, default=5)
    args = ap.parse_args()

    deadline = time.monotonic() + args.max_seconds
    endpoint = args.claim.rstrip('/') + '/v1/claims'
    processed = Processed(DB)

    def on_message(ch, method, props, body):
        if time.monotonic() >= deadline:
            # time is up: hand it back untouched and stop taking new ones
            ch.basic_nack(method.delivery_tag, requeue=True)
            ch.stop_consuming()
            return
        mid = props.message_id
        # A message can only reach us twice when the broker redelivers it (we died
        # or closed before the ack), so only redelivered messages need the lookup.
        if method.redelivered and processed.has(mid):
            ch.basic_ack(method.delivery_tag)
            print(mid, 'already processed, acked')
            return
        left = deadline - time.monotonic()
        try:
            r = requests.post(endpoint, data=body, headers={'Content-Type': 'application/json'},
                              timeout=max(0.3, min(TIMEOUT, left)))
            status = r.status_code
        except requests.RequestException as exc:
            status = 'error: %s' % exc.__class__.__name__
        print(mid, status, '(redelivered)' if method.redelivered else '')
        if status == 201:
            processed.add(mid)
            ch.basic_ack(method.delivery_tag)
        elif status == 422:
            ch.basic_reject(method.delivery_tag, requeue=False)
        elif method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)

    connection = pika.BlockingConnection(pika.URLParameters(AMQP))
    ch = connection.channel()
    ch.basic_qos(prefetch_count=args.prefetch)
    ch.basic_consume('claim.in', on_message, auto_ack=False)
    while time.monotonic() < deadline and ch.consumer_tags:
        connection.process_data_events(time_limit=min(0.5, max(0.0, deadline - time.monotonic())))
    connection.close()


if __name__ == '__main__':
    main()
