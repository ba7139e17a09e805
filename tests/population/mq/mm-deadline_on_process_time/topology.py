#!/usr/bin/env python3
# declare topology for the mq lab -- run it as often as you like
import os
import pika

params = pika.URLParameters(os.getenv('EAI_AMQP_URL', 'amqp://guest:guest@127.0.0.1:5672/%2F'))
connection = pika.BlockingConnection(params)
channel = connection.channel()

channel.exchange_declare(exchange='eai.claim', exchange_type='direct', durable=True)
channel.exchange_declare(exchange='eai.dlx', exchange_type='direct', durable=True)

dlx_args = {'x-dead-letter-exchange': 'eai.dlx',
            'x-dead-letter-routing-key': 'claim.dead'}
channel.queue_declare(queue='claim.in', durable=True, arguments=dlx_args)
channel.queue_declare(queue='claim.dead', durable=True)

channel.queue_bind(exchange='eai.claim', queue='claim.in', routing_key='claim')
channel.queue_bind(exchange='eai.dlx', queue='claim.dead', routing_key='claim.dead')

connection.close()
print('topology: done')
