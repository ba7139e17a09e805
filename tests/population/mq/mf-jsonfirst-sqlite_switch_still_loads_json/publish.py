import json
import os
import sys
import pika

path = sys.argv[1]
with open(path, 'rb') as f:
    body = f.read()
guid = json.loads(body.decode('utf-8'))['guid']

url = os.environ.get('EAI_AMQP_URL', 'amqp://guest:guest@127.0.0.1:5672/%2F')
connection = pika.BlockingConnection(pika.URLParameters(url))
channel = connection.channel()
channel.confirm_delivery()

rc = 0
try:
    channel.basic_publish(
        exchange='eai.claim',
        routing_key='claim',
        body=body,
        properties=pika.BasicProperties(delivery_mode=2, message_id=guid,
                                        content_type='application/json'),
        mandatory=True,
    )
    print('published', guid)
except pika.exceptions.UnroutableError as e:
    print('UNROUTABLE', e)
    rc = 1
except pika.exceptions.NackError as e:
    print('NACKED', e)
    rc = 1
connection.close()
sys.exit(rc)
