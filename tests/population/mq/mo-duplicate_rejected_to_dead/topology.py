import os
import pika

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
connection = pika.BlockingConnection(pika.URLParameters(url))
channel = connection.channel()

# exchanges
channel.exchange_declare(exchange="eai.claim", exchange_type="direct", durable=True)
channel.exchange_declare(exchange="eai.dlx", exchange_type="direct", durable=True)

# queues (claim.in dead-letters to eai.dlx with key claim.dead)
channel.queue_declare(queue="claim.in", durable=True, arguments={
    "x-dead-letter-exchange": "eai.dlx",
    "x-dead-letter-routing-key": "claim.dead",
})
channel.queue_declare(queue="claim.dead", durable=True)

# bindings
channel.queue_bind(queue="claim.in", exchange="eai.claim", routing_key="claim")
channel.queue_bind(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")

connection.close()
print("topology declared")
