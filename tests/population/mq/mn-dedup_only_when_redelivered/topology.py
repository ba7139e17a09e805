import os
import pika

AMQP = os.environ.get('EAI_AMQP_URL', 'amqp://guest:guest@127.0.0.1:5672/%2F')


def declare(ch):
    ch.exchange_declare('eai.claim', 'direct', durable=True)
    ch.exchange_declare('eai.dlx', 'direct', durable=True)
    ch.queue_declare('claim.in', durable=True, arguments={
        'x-dead-letter-exchange': 'eai.dlx',
        'x-dead-letter-routing-key': 'claim.dead',
    })
    ch.queue_declare('claim.dead', durable=True)
    ch.queue_bind('claim.in', 'eai.claim', 'claim')
    ch.queue_bind('claim.dead', 'eai.dlx', 'claim.dead')


if __name__ == '__main__':
    connection = pika.BlockingConnection(pika.URLParameters(AMQP))
    declare(connection.channel())
    connection.close()
    print('ok')
