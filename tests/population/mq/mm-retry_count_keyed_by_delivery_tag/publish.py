import json
import os
import sys

import pika

if len(sys.argv) < 2:
    sys.exit('usage: publish.py claim.json')
body = open(sys.argv[1], 'rb').read()
guid = json.loads(body)['guid']

url = os.environ.get('EAI_AMQP_URL', 'amqp://guest:guest@127.0.0.1:5672/%2F')
conn = pika.BlockingConnection(pika.URLParameters(url))
ch = conn.channel()
ch.confirm_delivery()
try:
    ch.basic_publish('eai.claim', 'claim', body,
                     pika.BasicProperties(delivery_mode=2, message_id=guid,
                                          content_type='application/json'),
                     mandatory=True)
except (pika.exceptions.UnroutableError, pika.exceptions.NackError) as e:
    print('publish failed:', repr(e), file=sys.stderr)
    conn.close()
    sys.exit(1)
conn.close()
print('published', guid)
