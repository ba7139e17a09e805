# topology.py  (written on my laptop in VS Code, Windows)
import os
import pika

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

connection = pika.BlockingConnection(pika.URLParameters(url))
channel = connection.channel()

channel.exchange_declare("eai.claim", exchange_type="direct", durable=True)
channel.exchange_declare("eai.dlx", exchange_type="direct", durable=True)

channel.queue_declare(
    "claim.in",
    durable=True,
    arguments={
        "x-dead-letter-exchange": "eai.dlx",
        "x-dead-letter-routing-key": "claim.dead",
    },
)
channel.queue_declare("claim.dead", durable=True)

channel.queue_bind("claim.in", "eai.claim", routing_key="claim")
channel.queue_bind("claim.dead", "eai.dlx", routing_key="claim.dead")

connection.close()
