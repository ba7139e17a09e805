import os
import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
channel = connection.channel()

channel.exchange_declare(exchange="eai.claim", exchange_type="direct", durable=True)
print("exchange eai.claim declared")
channel.exchange_declare(exchange="eai.dlx", exchange_type="direct", durable=True)
print("exchange eai.dlx declared")

channel.queue_declare(queue="claim.in", durable=True,
                      arguments={"x-dead-letter-exchange": "eai.dlx",
                                 "x-dead-letter-routing-key": "claim.dead"})
print("queue claim.in declared")
channel.queue_declare(queue="claim.dead", durable=True)
print("queue claim.dead declared")

channel.queue_bind(exchange="eai.claim", queue="claim.in", routing_key="claim")
print("binding eai.claim -> claim.in (claim)")
channel.queue_bind(exchange="eai.dlx", queue="claim.dead", routing_key="claim.dead")
print("binding eai.dlx -> claim.dead (claim.dead)")

connection.close()
