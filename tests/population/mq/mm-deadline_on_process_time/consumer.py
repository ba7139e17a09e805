#!/usr/bin/env python3
# consumer.py --claim URL --max-seconds N [--prefetch N]
#
# claim.in -> POST /v1/claims (http.client), manual ack after 201.
#   422            -> reject, no requeue (DLX)
#   503/err/timeout -> requeue once; redelivered and failing again -> DLX
#   processed id   -> ack only (sqlite)
import argparse
import http.client
import os
import sqlite3
import sys
import time
from urllib.parse import urlsplit

import pika

HTTP_TIMEOUT = 3.0


def elapsed_since(start):
    # time.clock() is gone since 3.8; process_time() is the replacement
    return time.process_time() - start


def post_claim(base, body, timeout):
    u = urlsplit(base)
    c = http.client.HTTPConnection(u.hostname, u.port or 80, timeout=timeout)
    try:
        c.request('POST', u.path.rstrip('/') + '/v1/claims', body,
                  {'Content-Type': 'application/json'})
        r = c.getresponse()
        r.read()
        return r.status
    except (OSError, http.client.HTTPException) as e:
        sys.stderr.write('claim system: %r\n' % (e,))
        return None
    finally:
        c.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--claim', required=True)
    ap.add_argument('--max-seconds', type=float, required=True)
    ap.add_argument('--prefetch', type=int, default=5)
    opts = ap.parse_args()

    start = time.process_time()

    db = sqlite3.connect(os.getenv('EAI_MQ_DB', '/root/eaimw/mq/processed.db'), timeout=10)
    db.execute('CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY)')
    db.commit()

    params = pika.URLParameters(os.getenv('EAI_AMQP_URL', 'amqp://guest:guest@127.0.0.1:5672/%2F'))
    connection = pika.BlockingConnection(params)
    channel = connection.channel()
    channel.basic_qos(prefetch_count=opts.prefetch)

    for method, props, body in channel.consume('claim.in', inactivity_timeout=0.5):
        if elapsed_since(start) >= opts.max_seconds:
            break
        if method is None:
            continue

        mid = props.message_id
        if db.execute('SELECT 1 FROM processed WHERE message_id = ?', (mid,)).fetchone():
            channel.basic_ack(method.delivery_tag)
            print('%s duplicate, ack' % mid)
            continue

        left = opts.max_seconds - elapsed_since(start)
        status = post_claim(opts.claim, body, max(0.1, min(HTTP_TIMEOUT, left)))

        if status == 201:
            db.execute('INSERT OR IGNORE INTO processed (message_id) VALUES (?)', (mid,))
            db.commit()
            channel.basic_ack(method.delivery_tag)
            print('%s 201 ack' % mid)
        elif status == 422:
            channel.basic_reject(method.delivery_tag, requeue=False)
            print('%s 422 -> dead' % mid)
        elif method.redelivered:
            channel.basic_reject(method.delivery_tag, requeue=False)
            print('%s %s again -> dead' % (mid, status))
        else:
            channel.basic_nack(method.delivery_tag, requeue=True)
            print('%s %s -> requeue' % (mid, status))
        sys.stdout.flush()

    connection.close()
    db.close()
    print('stopped')


if __name__ == '__main__':
    main()
