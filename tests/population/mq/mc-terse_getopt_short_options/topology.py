import os
import pika


def main():
    c = pika.BlockingConnection(pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
    ch = c.channel()
    dlx = {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"}
    for ex, q, key, args in (("eai.dlx", "claim.dead", "claim.dead", None), ("eai.claim", "claim.in", "claim", dlx)):
        ch.exchange_declare(exchange=ex, exchange_type="direct", durable=True)
        ch.queue_declare(queue=q, durable=True, arguments=args)
        ch.queue_bind(queue=q, exchange=ex, routing_key=key)
        print(ex, "->", q, key)
    c.close()


main()
