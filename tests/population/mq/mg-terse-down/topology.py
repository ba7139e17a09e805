import os, pika
c = pika.BlockingConnection(pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
ch = c.channel()
for x in ("eai.claim", "eai.dlx"):
    ch.exchange_declare(x, "direct", durable=True)
ch.queue_declare("claim.in", durable=True, arguments={"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"})
ch.queue_declare("claim.dead", durable=True)
ch.queue_bind("claim.in", "eai.claim", "claim")
ch.queue_bind("claim.dead", "eai.dlx", "claim.dead")
c.close()
