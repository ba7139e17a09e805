import json
import os
import sys

import pika

AMQP = os.environ.get('EAI_AMQP_URL', 'amqp://guest:guest@127.0.0.1:5672/%2F')


def publish(path):
    with open(path, 'rb') as f:
        body = f.read()
    claim = json.loads(body)
    connection = pika.BlockingConnection(pika.URLParameters(AMQP))
    try:
        ch = connection.channel()
        ch.confirm_delivery()
        ch.basic_publish('eai.claim', 'claim', body,
                         pika.BasicProperties(delivery_mode=2,
                                              message_id=claim['guid'],
                                              content_type='application/json'),
                         mandatory=True)
    finally:
        connection.close()
    return claim['guid']


if __name__ == '__main__':
    try:
        print('published', publish(sys.argv[1]))
    except (pika.exceptions.UnroutableError, pika.exceptions.NackError) as exc:
        print('NOT published:', exc, file=sys.stderr)
        sys.exit(1)
