import os
import pika

params = pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
conn = pika.BlockingConnection(params)
ch = conn.channel()

ch.exchange_declare("eai.claim", "direct", durable=True)
ch.exchange_declare("eai.dlx", "direct", durable=True)

ch.queue_declare("claim.in", durable=True, arguments={
    "x-dead-letter-exchange": "eai.dlx",
    "x-dead-letter-routing-key": "claim.dead",
})
# DLQ keeps dead claims for 14 days (ops replays or deletes them before that)
ch.queue_declare("claim.dead", durable=True, arguments={"x-message-ttl": 14 * 24 * 3600 * 1000})

ch.queue_bind("claim.in", "eai.claim", "claim")
ch.queue_bind("claim.dead", "eai.dlx", "claim.dead")
conn.close()
print("declared eai.claim, eai.dlx, claim.in, claim.dead")
