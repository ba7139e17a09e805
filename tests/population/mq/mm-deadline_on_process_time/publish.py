#!/usr/bin/env python3
# publish.py <claim.json>
import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError

if len(sys.argv) != 2:
    sys.stderr.write('usage: %s <claim.json>\n' % sys.argv[0])
    sys.exit(2)

f = open(sys.argv[1], 'rb')
body = f.read()
f.close()
claim = json.loads(body)

params = pika.URLParameters(os.getenv('EAI_AMQP_URL', 'amqp://guest:guest@127.0.0.1:5672/%2F'))
connection = pika.BlockingConnection(params)
channel = connection.channel()
channel.confirm_delivery()

props = pika.BasicProperties(content_type='application/json',
                             delivery_mode=2,
                             message_id=claim['guid'])
status = 0
try:
    channel.basic_publish(exchange='eai.claim', routing_key='claim', body=body,
                          properties=props, mandatory=True)
    print('confirmed: %s' % claim['guid'])
except UnroutableError:
    sys.stderr.write('unroutable: %s\n' % claim['guid'])
    status = 1
except NackError:
    sys.stderr.write('nacked: %s\n' % claim['guid'])
    status = 1
connection.close()
sys.exit(status)
